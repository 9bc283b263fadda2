"""training/repeated_readings.py: how text writes a noun reading that comes back in its sentence."""
import os
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "training"))

import repeated_readings  # noqa: E402


def tokens(text):
    return text.split()


class RepeatedReadings(unittest.TestCase):
    def test_same_and_other_spellings_are_counted_per_sentence(self):
        sentences = [
            tokens("記者/きしゃ/名詞-普通名詞 の/の/助詞-格助詞 記者/きしゃ/名詞-普通名詞"),
            tokens("貴社/きしゃ/名詞-普通名詞 の/の/助詞-格助詞 記者/きしゃ/名詞-普通名詞 が/が/助詞-格助詞 "
                   "汽車/きしゃ/名詞-普通名詞"),
            # another sentence starts afresh
            tokens("汽車/きしゃ/名詞-普通名詞"),
        ]
        same, other, kanji, pairs = repeated_readings.count(sentences)
        self.assertEqual((same, other, kanji), (1, 2, 2))
        self.assertEqual(pairs[("貴社", "記者")], 1)
        self.assertEqual(pairs[("貴社", "汽車")], 1)

    def test_only_nouns_of_two_kana_or_more(self):
        sentences = [tokens("目/め/名詞-普通名詞 芽/め/名詞-普通名詞 言う/いう/動詞 云う/いう/動詞")]
        self.assertEqual(repeated_readings.count(sentences)[:3], (0, 0, 0))

    def test_kana_ascii_and_numerals_are_not_kanji_against_kanji(self):
        self.assertFalse(repeated_readings.is_kanji_against_kanji("事", "こと"))
        self.assertFalse(repeated_readings.is_kanji_against_kanji("Adobe", "アドビ"))
        self.assertFalse(repeated_readings.is_kanji_against_kanji("３", "三"))
        self.assertTrue(repeated_readings.is_kanji_against_kanji("機関", "期間"))


if __name__ == "__main__":
    unittest.main()
