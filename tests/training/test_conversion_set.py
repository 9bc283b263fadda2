"""training/conversion_set.py: the conversational set's readings are what a user types.

    python3 -m unittest discover -s tests/training
"""
import os
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "training"))
import conversion_set  # noqa: E402


class ConversionSetTest(unittest.TestCase):
    def test_a_number_of_several_digits_is_typed_as_its_digits(self):
        line = "1/いち/2044/2044 0/ぜろ/2044/2044 0/ぜろ/2044/2044 万/まん/2047/2047 円/えん/2011/2011"
        self.assertEqual(conversion_set.conversion_pair(line), ("100まんえん", "100万円"))

    def test_a_single_digit_keeps_its_reading(self):
        line = "3/さん/2044/2044 人/にん/2020/2020 で/で/370/370"
        self.assertEqual(conversion_set.conversion_pair(line), ("さんにんで", "3人で"))

    def test_a_line_read_with_other_than_kana_is_left_out(self):
        self.assertIsNone(conversion_set.conversion_pair("PC/ぴーしー/1/1 を/を/2/2 ABC/ABC/3/3"))
        self.assertIsNone(conversion_set.conversion_pair("壊れ/"))
        self.assertIsNone(conversion_set.conversion_pair(""))


if __name__ == "__main__":
    unittest.main()
