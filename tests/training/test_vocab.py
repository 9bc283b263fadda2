"""training/vocab.py on a small corpus: the vocabulary counts every training sentence (it is the shipped
LM's, so its order must not move), the streams leave the kanji numeral headings out, and the fine-tune
stream and the device bundle's encoded corpora encode with the same ids.

    python3 -m unittest discover -s tests/training
"""
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "training"))
import vocab  # noqa: E402

HEADING = "二/に/1/1"
SENTENCES = {
    "chat": ["今日/きょう/1/1 は/は/2/2 雨/あめ/1/1"] * 3,
    "docs": ["雨/あめ/1/1 が/が/2/2 降る/ふる/3/3"],
    "jglue": ["晴れ/はれ/1/1"],
    "kwdlc": ["雨/あめ/1/1"],
    "wac": ["今日/きょう/1/1"],
    # Aozora's section headings: a numeral alone. Counted for the vocabulary (old text, weight 1), but
    # not put in any stream.
    "aozora": [HEADING] * 5 + ["雪/ゆき/1/1 。/。/3/3"],
    # a corpus that only fine-tuning streams take (vocab.STREAM_ONLY): not counted
    "tatoeba": ["猫/ねこ/1/1 が/が/2/2 好き/すき/1/1"] * 4,
}


def run_vocab(*args):
    subprocess.run([sys.executable, os.path.join(ROOT, "training", "vocab.py"), *args], check=True,
                   capture_output=True)


class VocabTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.corpus = os.path.join(cls.tmp.name, "corpus")
        for sub in ("train", "dev"):
            os.makedirs(os.path.join(cls.corpus, sub))
        for name, lines in SENTENCES.items():
            with open(os.path.join(cls.corpus, "train", name + ".txt"), "w", encoding="utf-8") as f:
                f.write("\n".join(lines) + "\n")
        for name in ("chat", "kwdlc", "wac"):
            with open(os.path.join(cls.corpus, "dev", name + ".txt"), "w", encoding="utf-8") as f:
                f.write("雨/あめ/1/1 二/に/1/1\n")
        cls.lm = os.path.join(cls.tmp.name, "lm")
        run_vocab("--corpus", cls.corpus, "--out", cls.lm, "--size", "20", "--block", "2")
        cls.ids = {}
        cls.counts = {}
        with open(os.path.join(cls.lm, "vocab.tsv"), encoding="utf-8") as f:
            for line in f:
                i, key, count = line.rstrip("\n").split("\t")
                cls.ids[key] = int(i)
                cls.counts[key] = int(count)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_the_vocabulary_counts_the_headings(self):
        self.assertEqual(self.counts[HEADING], 5)
        # <s>: every sentence, modern ones three times, the headings too.
        modern = sum(len(v) for k, v in SENTENCES.items() if k in vocab.MODERN)
        self.assertEqual(self.counts["<s>"], vocab.WEIGHT_MODERN * modern + len(SENTENCES["aozora"]))

    def test_a_stream_only_corpus_is_not_counted_and_goes_into_a_fine_tuning_stream(self):
        self.assertIn("tatoeba", vocab.STREAM_ONLY)
        self.assertNotIn("猫/ねこ/1/1", self.ids)
        self.assertIn("が/が/2/2", self.ids)
        lengths = {}
        for weights in ("chat=1", "chat=1,tatoeba=2"):
            ft = os.path.join(self.tmp.name, "ft-" + weights.replace(",", "-").replace("=", ""))
            run_vocab("--corpus", self.corpus, "--vocab-tsv", os.path.join(self.lm, "vocab.tsv"), "--out", ft,
                      "--weights", weights)
            train = np.fromfile(os.path.join(ft, "train.bin"), dtype=np.int32)
            lengths[weights] = len(train)
            if "tatoeba" in weights:
                self.assertEqual(int((train == self.ids["<unk>"]).sum()), 2 * 4 * 2, "猫 and 好き, out of the vocabulary")
        # four sentences twice: <s> and three words each
        self.assertEqual(lengths["chat=1,tatoeba=2"] - lengths["chat=1"], 2 * 4 * 4)

    def test_the_streams_leave_the_headings_out(self):
        train = np.fromfile(os.path.join(self.lm, "train.bin"), dtype=np.int32)
        self.assertNotIn(self.ids[HEADING], train)
        self.assertIn(self.ids["雪/ゆき/1/1"], train)
        ft = os.path.join(self.tmp.name, "ft")
        run_vocab("--corpus", self.corpus, "--vocab-tsv", os.path.join(self.lm, "vocab.tsv"), "--out", ft,
                  "--weights", "kwdlc=10,wac=10,chat=2,docs=2,jglue=3,aozora=1")
        ft_train = np.fromfile(os.path.join(ft, "train.bin"), dtype=np.int32)
        self.assertNotIn(self.ids[HEADING], ft_train)
        self.assertIn(self.ids["雪/ゆき/1/1"], ft_train)

    def test_dev_streams_keep_every_sentence(self):
        dev = np.fromfile(os.path.join(self.lm, "dev_kwdlc.bin"), dtype=np.int32)
        self.assertEqual(list(dev), [self.ids["<s>"], self.ids["雨/あめ/1/1"], self.ids[HEADING], self.ids["<s>"]])

    def test_is_numeral_heading(self):
        self.assertTrue(vocab.is_numeral_heading(["十一/じゅういち/1/1", "。/。/2/2"]))
        self.assertFalse(vocab.is_numeral_heading(["一/いち/1/1", "つ/つ/2/2"]))


if __name__ == "__main__":
    unittest.main()
