"""training/device_pack.py: what comes back from an accelerator. An embedding left as the starting LM's is
left out and restored bit for bit; a trained one travels as int8 differences from it, so rows that did not move
come back exact and the others within half a step; the other tensors come back as they were.

    python3 -m unittest discover -s tests/training
"""
import os
import subprocess
import sys
import tarfile
import tempfile
import unittest

import numpy as np
from safetensors.numpy import load_file, save_file

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PACK = os.path.join(ROOT, "training", "device_pack.py")


def lm(emb, seed):
    rng = np.random.default_rng(seed)
    return {"embedding": emb, "out_bias": rng.normal(size=emb.shape[0]).astype(np.float32),
            "w_ih": rng.normal(size=(16, 4)).astype(np.float32)}


class DevicePackTest(unittest.TestCase):
    def test_kept_and_trained_embeddings_come_back(self):
        rng = np.random.default_rng(1)
        start = rng.normal(size=(6, 4)).astype(np.float32)
        moved = start.copy()
        moved[4:] += rng.normal(scale=0.3, size=(2, 4)).astype(np.float32)
        runs = {"kept": lm(start.copy(), 2), "trained": lm(moved, 3)}
        with tempfile.TemporaryDirectory() as tmp:
            init = os.path.join(tmp, "init.safetensors")
            save_file({"embedding": start}, init)
            packed = os.path.join(tmp, "pack")
            os.makedirs(packed)
            for name, t in runs.items():
                src = os.path.join(tmp, name + ".safetensors")
                save_file(t, src, metadata={"steps": "7"})
                subprocess.run([sys.executable, PACK, "pack", "--init", init, "--lstm", src,
                                "--out", os.path.join(packed, name + ".safetensors")], check=True, capture_output=True)
            self.assertNotIn("embedding", load_file(os.path.join(packed, "kept.safetensors")))
            self.assertEqual(load_file(os.path.join(packed, "trained.safetensors"))["embedding_q"].dtype, np.int8)
            parts = os.path.join(tmp, "parts")
            os.makedirs(parts)
            with tarfile.open(os.path.join(parts, "out.tar.part00"), "w") as tar:
                tar.add(packed, arcname=".")
            vocab = os.path.join(tmp, "vocab.tsv")
            with open(vocab, "w") as f:
                f.write("".join(f"{i}\tw{i}\t1\n" for i in range(6)))
            out = os.path.join(tmp, "lms")
            subprocess.run([sys.executable, PACK, "unpack", "--init", init, "--vocab", vocab, "--parts", parts,
                            "--out", out], check=True, capture_output=True)
            for name, t in runs.items():
                back = load_file(os.path.join(out, name, "lstm.safetensors"))
                with open(os.path.join(out, name, "embedding.txt")) as f:
                    self.assertEqual(f.read().strip(), name)
                for k in ("out_bias", "w_ih"):
                    np.testing.assert_array_equal(back[k], t[k])
                np.testing.assert_array_equal(back["embedding"][:4], start[:4])
                step = np.abs(t["embedding"] - start).max(axis=1, keepdims=True) / 127
                self.assertTrue(np.all(np.abs(back["embedding"] - t["embedding"]) <= step / 2 + 1e-6), name)
            self.assertFalse(np.array_equal(load_file(os.path.join(out, "trained", "lstm.safetensors"))["embedding"],
                                            start))
            # no classes.tsv beside the vocabulary: none beside the LMs; with one (an LM with <unk> classes), a copy
            self.assertFalse(os.path.exists(os.path.join(out, "kept", "classes.tsv")))
            with open(os.path.join(tmp, "classes.tsv"), "w") as f:
                f.write("1851\t5\n")
            subprocess.run([sys.executable, PACK, "unpack", "--init", init, "--vocab", vocab, "--parts", parts,
                            "--out", out], check=True, capture_output=True)
            for name in runs:
                with open(os.path.join(out, name, "classes.tsv")) as f:
                    self.assertEqual(f.read(), "1851\t5\n")

    def test_an_embedding_of_another_shape_than_the_start_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            init = os.path.join(tmp, "init.safetensors")
            save_file({"embedding": np.zeros((6, 4), np.float32)}, init)
            src = os.path.join(tmp, "run.safetensors")
            save_file(lm(np.zeros((8, 4), np.float32), 1), src)
            r = subprocess.run([sys.executable, PACK, "pack", "--init", init, "--lstm", src,
                                "--out", os.path.join(tmp, "x.safetensors")], capture_output=True, text=True)
            self.assertNotEqual(r.returncode, 0)
            self.assertIn("starting LM", r.stderr)


if __name__ == "__main__":
    unittest.main()
