"""training/pruned_words.py: which dictionary spellings the shipped pruning leaves out."""
import os
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "training"))

import pruned_words  # noqa: E402


class PrunedWords(unittest.TestCase):
    def test_the_shipped_rule(self):
        kept = pruned_words.is_kept
        self.assertTrue(kept("きしゃ", 8000, False, False))
        self.assertFalse(kept("きしゃ", 8001, False, False))
        self.assertFalse(kept("たかお", 7001, True, False))
        self.assertFalse(kept("ながいながいよみのことば", 100, False, False))
        # the keep-list overrules cost and length
        self.assertTrue(kept("ながいながいよみのことば", 9000, False, True))

    def test_a_spelling_kept_under_other_ids_is_not_pruned(self):
        lex = [
            "がじゅつ\t1851\t1851\t9000\tガジュツ\n",
            "きしゃ\t1851\t1851\t9000\t汽車\n",
            "きしゃ\t1852\t1852\t4000\t汽車\n",
            "たかお\t10\t10\t7500\t多加雄\n",
        ]
        keep = {("たかお", "多加雄", "10", "10")}
        self.assertEqual(
            pruned_words.pruned_spellings(lex, set(), {"10"}),
            {("ガジュツ", "がじゅつ"), ("多加雄", "たかお")},
        )
        self.assertEqual(pruned_words.pruned_spellings(lex, keep, {"10"}), {("ガジュツ", "がじゅつ")})

    def test_gold_readings_in_katakana(self):
        self.assertEqual(pruned_words.hiragana("ニューカマーズ"), "にゅーかまーず")


if __name__ == "__main__":
    unittest.main()
