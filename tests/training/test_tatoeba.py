"""training/tatoeba.py: Tatoeba's Japanese column, without the dev sets' sentences and without repeats.

    python3 -m unittest discover -s tests/training
"""
import os
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "training"))
import tatoeba  # noqa: E402


class TatoebaTest(unittest.TestCase):
    def test_dev_sentences_and_repeats_are_left_out(self):
        with tempfile.TemporaryDirectory() as dev:
            with open(os.path.join(dev, "kwdlc.test.tsv"), "w", encoding="utf-8") as f:
                f.write("あめがふる\t雨が降る。\n")
            with open(os.path.join(dev, "wac.dev.tsv"), "w", encoding="utf-8") as f:
                f.write("ゆき\t雪\n")
            with open(os.path.join(dev, "chat.dev.txt"), "w", encoding="utf-8") as f:
                f.write("おはよう ございます！\n")
            keys = tatoeba.dev_keys(dev)
        rows = [
            "1\t雨が降る\tIt rains.\n",  # kwdlc's, without its 。
            "2\t雪。\tSnow.\n",  # wac's, with a 。
            "3\tおはようございます。\tGood morning.\n",  # chat's, without its space and ！
            "4\t猫が好きです。\tI like cats.\n",
            "5\t猫が好きです。\tI like cats!\n",  # a repeat
            "6\t\tnothing\n",
            "7\n",
            "8\t 犬が好きです。 \tI like dogs.\n",
        ]
        sentences, dropped = tatoeba.kept(rows, keys)
        self.assertEqual(sentences, ["猫が好きです。", "犬が好きです。"])
        self.assertEqual(dropped, 3)

    def test_a_changed_archive_is_refused(self):
        with tempfile.NamedTemporaryFile(suffix=".tar.gz") as f:
            f.write(b"not the package")
            f.flush()
            self.assertNotEqual(tatoeba.sha256(f.name), tatoeba.SHA256)


if __name__ == "__main__":
    unittest.main()
