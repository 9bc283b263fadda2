"""training/clean_readings.py: wac.dev's readings as a keyboard types them."""
import os
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "training"))

import clean_readings  # noqa: E402


class CleanReadings(unittest.TestCase):
    def test_the_annotating_tools_tags_are_taken_out(self):
        reading = "grammatical特殊-空白categoryのたいやくご"
        self.assertEqual(clean_readings.clean(reading, []), "grammaticalcategoryのたいやくご")
        reading = "にじゅういちじ:名詞-数詞から"
        self.assertEqual(clean_readings.clean(reading, []), "にじゅういちじから")

    def test_a_word_with_two_readings_keeps_the_first(self):
        tokens = ["日本/にほん／にっぽん/名詞-地名", "で/で/助詞-格助詞"]
        self.assertEqual(clean_readings.clean("にほん／にっぽんで", tokens), "にほんで")

    def test_a_slash_the_text_writes_is_kept(self):
        tokens = ["TotalBases／TB/TotalBases／TB/名詞-普通名詞"]
        reading = "えい：TotalBases／TB"
        self.assertEqual(clean_readings.clean(reading, tokens), reading)

    def test_katakana_and_plain_kana_are_left_alone(self):
        reading = "にせんじゅうねんのクリスマスるあー"
        self.assertEqual(clean_readings.clean(reading, []), reading)


if __name__ == "__main__":
    unittest.main()
