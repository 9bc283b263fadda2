"""training/phrase_set.py: sentences cut into the phrases a user converts one at a time.

    python3 -m unittest discover -s tests/training
"""
import os
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "training"))
import phrase_set  # noqa: E402


class PhraseSetTest(unittest.TestCase):
    def test_a_phrase_is_a_content_word_and_the_function_words_after_it(self):
        line = ("お/お/接頭辞 茶/ちゃ/名詞-普通名詞 が/が/助詞-格助詞 熱い/あつい/形容詞 "
                "です/です/判定詞 ね/ね/助詞-終助詞 。/。/特殊-句点")
        self.assertEqual(phrase_set.phrases(line), [("おちゃが", "お茶が"), ("あついですね。", "熱いですね。")])

    def test_digits_are_written_half_width(self):
        line = "２/に/名詞-数詞 人/にん/接尾辞-名詞性名詞助数辞 で/で/助詞-格助詞"
        self.assertEqual(phrase_set.phrases(line), [("ににんで", "2人で")])

    def test_a_sentence_with_a_token_of_no_reading_is_left_out(self):
        self.assertEqual(phrase_set.phrases("熱い//形容詞"), [])
        self.assertEqual(phrase_set.phrases("熱い/あつい"), [])

    def test_mozc_pos_ids_are_named_by_id_def(self):
        names = {"1851": "名詞,一般,*,*,*,*,*", "369": "助詞,格助詞,一般,*,*,*,が",
                 "2596": "接頭詞,名詞接続,*,*,*,*,*", "1370": "動詞,非自立,*,*,五段・カ行促音便,基本形,いく",
                 "638": "動詞,自立,*,*,サ変・スル,連用形,する", "348": "助詞,接続助詞,*,*,*,*,て"}
        line = "お/お/2596/2596 茶/ちゃ/1851/1851 が/が/369/369 し/し/638/638 て/て/348/348 いく/いく/1370/1370"
        self.assertEqual(phrase_set.phrases(line, names), [("おちゃが", "お茶が"), ("していく", "していく")])

    def test_a_chat_line_is_typed_as_the_conversion_set_types_it(self):
        names = {"2044": "名詞,数,*,*,*,*,*", "2047": "名詞,数,*,*,*,*,*", "2011": "名詞,接尾,助数詞,*,*,*,*"}
        line = "1/いち/2044/2044 0/ぜろ/2044/2044 0/ぜろ/2044/2044 万/まん/2047/2047 円/えん/2011/2011"
        cut = phrase_set.chat_phrases(line, names)
        self.assertEqual([phrase_set.as_pair(p) for p in cut], [("100まんえん", "100万円")])
        self.assertEqual(phrase_set.chat_phrases("ABC/ABC/1851/1851", names), [])

    def test_a_phrase_tok_line_spells_its_reading_and_text(self):
        line = "お/お/接頭辞 茶/ちゃ/名詞-普通名詞 ２/に/名詞-数詞 杯/はい/接尾辞-名詞性名詞助数辞"
        cut = phrase_set.phrase_tokens(line)
        self.assertEqual([phrase_set.as_tok(p) for p in cut], ["お/お/接頭辞 茶/ちゃ/名詞-普通名詞", "2/に/名詞-数詞 杯/はい/接尾辞-名詞性名詞助数辞"])
        self.assertEqual([phrase_set.as_pair(p) for p in cut], [("おちゃ", "お茶"), ("にはい", "2杯")])


if __name__ == "__main__":
    unittest.main()
