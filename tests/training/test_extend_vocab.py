"""training/extend_vocab.py: a larger vocabulary keeps the shipped LM's ids and appends the next most frequent
words, and the LM's weights extended to it keep every old row and start each new one from the words like it;
training/vocab.py's encoded corpora widen to uint32 past 65,536 words.

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
import extend_vocab  # noqa: E402
import vocab  # noqa: E402


class ExtendedVocabTest(unittest.TestCase):
    OLD = [("<s>", 100.0), ("<unk>", 60.0), ("の/の/1/1", 50.0), ("雨/あめ/2/2", 20.0)]

    def test_old_ids_stay_and_new_words_follow_by_count_then_key(self):
        counts = {"<s>": 100, "<unk>": 60, "の/の/1/1": 50, "雨/あめ/2/2": 20,
                  "雪/ゆき/2/2": 9, "晴/はれ/2/2": 9, "霧/きり/2/2": 12, "霰/あられ/2/2": 1}
        rows = extend_vocab.extended_vocab(self.OLD, counts, 3)
        self.assertEqual([k for k, _ in rows[:4]], [k for k, _ in self.OLD])
        self.assertEqual([k for k, _ in rows[4:]], ["霧/きり/2/2", "晴/はれ/2/2", "雪/ゆき/2/2"])
        # <unk> counted the new words: it keeps the rest
        self.assertEqual(dict(rows)["<unk>"], 60 - 12 - 9 - 9)

    def test_the_corpus_is_counted_as_vocab_py_counts_it(self):
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "train"))
            os.makedirs(os.path.join(tmp, "dev"))
            text = {"chat": "雨/あめ/2/2 雪/ゆき/2/2", "aozora": "雪/ゆき/2/2"}
            for name in vocab.MODERN + vocab.OLD:
                with open(os.path.join(tmp, "train", name + ".txt"), "w", encoding="utf-8") as f:
                    f.write(text.get(name, "") + "\n")
            counts = extend_vocab.count_corpus(tmp)
        self.assertEqual(counts["雨/あめ/2/2"], vocab.WEIGHT_MODERN)
        self.assertEqual(counts["雪/ゆき/2/2"], vocab.WEIGHT_MODERN + 1)


class ExtendWeightsTest(unittest.TestCase):
    def setUp(self):
        rng = np.random.default_rng(1)
        # 5 old words (two of POS 2/2 with vectors, one of 3/3), 3 new ones
        self.rows = [("<s>", 100.0), ("<unk>", 80.0), ("雨/あめ/2/2", 40.0), ("雪/ゆき/2/2", 30.0),
                     ("風/かぜ/2/2", 20.0), ("霧/きり/2/2", 10.0), ("走る/はしる/3/3", 5.0), ("謎/なぞ/9/9", 4.0)]
        self.v0 = 5
        self.t = {"embedding": rng.normal(size=(self.v0, 4)).astype(np.float32),
                  "out_bias": rng.normal(size=self.v0).astype(np.float32),
                  "w_ih": np.ones((16, 4), np.float32)}
        self.vectors = {"雨": np.array([1.0, 0.0]), "雪": np.array([0.0, 1.0]), "風": np.array([1.0, 1.0]),
                        "霧": np.array([0.5, 0.5])}

    def test_old_rows_stay_and_new_rows_start_from_their_pos(self):
        out, report = extend_vocab.extend_weights(self.t, self.rows, self.vectors)
        emb, bias = out["embedding"], out["out_bias"]
        self.assertEqual(emb.shape, (8, 4))
        np.testing.assert_array_equal(emb[: self.v0], self.t["embedding"])
        np.testing.assert_array_equal(out["w_ih"], self.t["w_ih"])
        # 霧 has POS 2/2 (three old words) and a vector: the POS mean plus the ridge map, which moves it
        pos_mean = self.t["embedding"][2:5].mean(0)
        self.assertFalse(np.allclose(emb[5], pos_mean))
        self.assertTrue(np.all(np.isfinite(emb)))
        # 走る's POS has no old word, nor its left id: the mean of the rows past the head
        np.testing.assert_allclose(emb[6], self.t["embedding"][min(extend_vocab.HEAD_ROWS, self.v0 - 1):].mean(0),
                                   rtol=1e-6)
        # the new words' output biases fall with their counts; <unk> gives up their share
        self.assertGreater(bias[5], bias[7])
        np.testing.assert_allclose(bias[1], self.t["out_bias"][1] + np.log(80.0 / (80.0 + 10 + 5 + 4)), rtol=1e-6)
        np.testing.assert_array_equal(bias[[0, 2, 3, 4]], self.t["out_bias"][[0, 2, 3, 4]])
        self.assertIn("3 rows appended to 5, 1 of them with a word vector", report)

    def test_without_vectors_a_new_row_is_its_pos_mean(self):
        out, _ = extend_vocab.extend_weights(self.t, self.rows, {})
        np.testing.assert_allclose(out["embedding"][5], self.t["embedding"][2:5].mean(0), rtol=1e-6)


class WideIdsTest(unittest.TestCase):
    def test_encoded_corpora_widen_past_65536_words(self):
        with tempfile.TemporaryDirectory() as tmp:
            for top, dtype in [(65535, np.uint16), (100001, np.uint32)]:
                flat = np.array([0, 5, top, 0, 7], dtype=np.int32)
                enc = {"chat": (flat, np.array([0, 3, 5]))}
                path = os.path.join(tmp, f"{top}.npz")
                vocab.save_encoded(path, enc, (3, 0))
                self.assertEqual(np.load(path)["chat"].dtype, dtype)
                back, special = vocab.load_encoded(path, ["chat"])
                np.testing.assert_array_equal(back["chat"][0], flat)
                self.assertEqual(special, (3, 0))


class CommandLineTest(unittest.TestCase):
    def test_vocab_writes_the_extended_vocabulary_and_dev_streams(self):
        with tempfile.TemporaryDirectory() as tmp:
            corpus = os.path.join(tmp, "corpus")
            for sub in ("train", "dev"):
                os.makedirs(os.path.join(corpus, sub))
            for name in vocab.MODERN + vocab.OLD:
                with open(os.path.join(corpus, "train", name + ".txt"), "w", encoding="utf-8") as f:
                    f.write("雨/あめ/2/2 霧/きり/2/2 霧/きり/2/2\n" if name == "chat" else "雨/あめ/2/2\n")
            for name in ("chat", "kwdlc", "wac"):
                with open(os.path.join(corpus, "dev", name + ".txt"), "w", encoding="utf-8") as f:
                    f.write("霧/きり/2/2 雪/ゆき/2/2\n")
            old = os.path.join(tmp, "old.tsv")
            with open(old, "w", encoding="utf-8") as f:
                f.write("0\t<s>\t20\n1\t<unk>\t9\n2\t雨/あめ/2/2\t8\n")
            out = os.path.join(tmp, "large")
            subprocess.run([sys.executable, os.path.join(ROOT, "training", "extend_vocab.py"), "vocab",
                            "--vocab-tsv", old, "--size", "5", "--corpus", corpus, "--out", out],
                           check=True, capture_output=True)
            with open(os.path.join(out, "vocab.tsv"), encoding="utf-8") as f:
                lines = [line.rstrip("\n").split("\t") for line in f]
            self.assertEqual([k for _, k, _ in lines], ["<s>", "<unk>", "雨/あめ/2/2", "霧/きり/2/2"])
            self.assertEqual(lines[1][2], str(9 - 2 * vocab.WEIGHT_MODERN))
            dev = np.fromfile(os.path.join(out, "dev_kwdlc.bin"), dtype=np.int32)
            np.testing.assert_array_equal(dev, [0, 3, 1, 0])


if __name__ == "__main__":
    unittest.main()
