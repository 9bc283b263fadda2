"""training/error_kinds.py: wrong conversions sorted into spelling choices and others."""
import os
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "training"))

import error_kinds  # noqa: E402


class ErrorKinds(unittest.TestCase):
    def test_kana_for_kanji_and_numerals_are_spelling_choices(self):
        self.assertTrue(error_kinds.is_spelling_choice("ご確認下さい", "ご確認ください"))
        self.assertTrue(error_kinds.is_spelling_choice("その事です", "そのことです"))
        self.assertTrue(error_kinds.is_spelling_choice("１つ", "一つ"))

    def test_the_same_rule_as_eval_conversion(self):
        # the pairs crates/henkan-cli/src/spelling_choice.rs tests too
        with open(os.path.join(ROOT, "tests", "golden", "spelling-choices.tsv"), encoding="utf-8") as f:
            pairs = [l.rstrip("\n").split("\t") for l in f if not l.startswith("#")]
        self.assertGreaterEqual(len(pairs), 10)
        for want, got, same in pairs:
            self.assertEqual(bool(error_kinds.is_spelling_choice(want, got)), same == "yes", (want, got))

    def test_runs_lie_between_the_common_characters(self):
        self.assertEqual(error_kinds.difference_spans("お話させて", "お話しさせて"), [(2, 2, 2, 3)])
        self.assertEqual(error_kinds.differences("下さいね", "くださいね"), [("下", "くだ")])
        self.assertEqual(error_kinds.differences("同じ", "同じ"), [])

    def test_other_kanji_are_not(self):
        self.assertFalse(error_kinds.is_spelling_choice("昨日は", "機能は"))
        self.assertFalse(error_kinds.is_spelling_choice("講演を聞く", "公演を聞く"))
        # one difference of meaning is enough, beside a spelling choice
        self.assertFalse(error_kinds.is_spelling_choice("講演を聞いて下さい", "公演を聞いてください"))

    def test_the_errors_output_is_read_by_sentence(self):
        text = (
            "きのうは\n  want 昨日は\n  got  機能は\n"
            "ください\n  want 下さい\n  got  ください\n"
            "2 sentences: exact top-1 0.0%\n"
        )
        self.assertEqual(
            error_kinds.wrong_sentences(text),
            [("昨日は", "機能は"), ("下さい", "ください")],
        )

    def test_the_others_are_split_by_what_they_touch(self):
        gold = error_kinds.gold_spans([
            "公文/くもん/名詞-組織名 式/しき/接尾辞-名詞性名詞接尾辞 は/は/助詞-副助詞",
            "眼鏡/めがね/名詞-普通名詞 です/です/判定詞",
            "語/ご/名詞-普通名詞 を/を/助詞-格助詞",
        ])
        self.assertEqual(gold["公文式は"], [(0, 2, "名詞-組織名"), (2, 3, "接尾辞-名詞性名詞接尾辞"), (3, 4, "助詞-副助詞")])
        kind = error_kinds.other_kind
        self.assertEqual(kind("公文式は", "苦悶式は", gold["公文式は"]), "proper noun")
        # without the gold tokens the same error is one of kanji words
        self.assertEqual(kind("公文式は", "苦悶式は", None), "kanji")
        self.assertEqual(kind("眼鏡です", "メガネです", gold["眼鏡です"]), "katakana")
        self.assertEqual(kind("語を", "５を", gold["語を"]), "digits")
        self.assertEqual(kind("昨日は", "機能は", None), "kanji")
        # a spelling choice beside an error of meaning: the meaning decides
        self.assertEqual(kind("講演を聞いて下さい", "公演を聞いてください", None), "kanji")


if __name__ == "__main__":
    unittest.main()
