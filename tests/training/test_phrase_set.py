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


if __name__ == "__main__":
    unittest.main()
