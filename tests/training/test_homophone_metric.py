"""training/homophone_metric.py: the homophone sets and the examples the metric is fitted on."""
import os
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "training"))

import homophone_metric as hm  # noqa: E402

ROWS = {"機械": 0, "機会": 1, "故障": 2, "口座": 3, "講座": 4, "開設": 5, "解説": 6, "奇怪": 7}
LEX = [
    "きかい\t1851\t1851\t3000\t機械\n",
    "きかい\t1851\t1851\t3100\t機会\n",
    "きかい\t1900\t1900\t7200\t奇怪\n",  # too costly
    "きかい\t10\t10\t3000\t機械\n",  # a person name's POS
    "こしょう\t1851\t1851\t3000\t故障\n",  # no homophone with a row
    "こうざ\t1851\t1851\t3000\t口座\n",
    "こうざ\t1851\t1851\t3000\t講座\n",
    "かいせつ\t1851\t1851\t3000\t開設\n",
    "かいせつ\t1851\t1851\t3000\t解説\n",
]


class HomophoneMetric(unittest.TestCase):
    def spellings(self):
        return hm.homophones(LEX, ROWS, {"10"}, 7100)

    def test_readings_with_two_spellings_that_have_rows(self):
        self.assertEqual(
            self.spellings(),
            {"きかい": ["機会", "機械"], "こうざ": ["口座", "講座"], "かいせつ": ["解説", "開設"]},
        )

    def test_each_word_with_homophones_is_an_example_against_them(self):
        line = "口座/こうざ/1851/1851 を/を/379/379 開設/かいせつ/1851/1851 し/し/638/638 た/た/142/142"
        ex = hm.examples([line], ROWS, self.spellings())
        # (index of the annotated spelling, the spellings' rows, the other content words' rows)
        self.assertEqual(ex, [(0, [3, 4], [5], "こうざ"), (1, [6, 5], [3], "かいせつ")])

    def test_a_sentence_with_one_content_word_gives_none(self):
        self.assertEqual(hm.examples(["機械/きかい/1851/1851 だ/だ/1/1"], ROWS, self.spellings()), [])


if __name__ == "__main__":
    unittest.main()
