"""training/unk_classes.py: out-of-vocabulary words become their POS group's `<unk:CLASS>` word in the
vocabulary, the stream (training/vocab.py, with classes.tsv beside the vocabulary) and the LM's weights;
the analyzer's `<unk>` stays.

    python3 -m unittest discover -s tests/training
"""
import argparse
import os
import sys
import tempfile
import unittest

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "training"))
import unk_classes  # noqa: E402
import vocab  # noqa: E402

ID_DEF = """0 BOS/EOS,*,*,*,*,*,*
1 名詞,一般,*,*,*,*,*
2 名詞,サ変接続,*,*,*,*,*
3 名詞,固有名詞,地域,一般,*,*,*
4 動詞,自立,*,*,五段・ラ行,連用形,*
5 動詞,自立,*,*,五段・ラ行,基本形,*
6 助詞,格助詞,一般,*,*,*,*
"""


class ClassOfTest(unittest.TestCase):
    def test_groups(self):
        c = unk_classes.class_of
        self.assertEqual(c("名詞,サ変接続,*,*,*,*,*"), "名詞,サ変接続")
        self.assertEqual(c("名詞,固有名詞,人名,姓,*,*,*"), "名詞,固有名詞,人名")
        self.assertEqual(c("名詞,固有名詞,国,*,*,*,*"), "名詞,固有名詞,一般")
        self.assertEqual(c("名詞,代名詞,一般,*,*,*,*"), "名詞,一般")
        self.assertEqual(c("動詞,自立,*,*,一段,連用タ接続,*"), "動詞,連用")
        self.assertEqual(c("動詞,自立,*,*,一段,基本形,*"), "動詞,基本")
        self.assertEqual(c("動詞,自立,*,*,一段,仮定形,*"), "動詞,その他")
        self.assertEqual(c("動詞,非自立,*,*,一段,基本形,*"), "動詞,非自立")
        self.assertEqual(c("形容詞,自立,*,*,形容詞・イ段,基本形,*"), "形容詞")
        self.assertEqual(c("助詞,格助詞,一般,*,*,*,*"), "その他")


class PipelineTest(unittest.TestCase):
    def test_vocab_stream_and_init(self):
        with tempfile.TemporaryDirectory() as tmp:
            corpus, out = os.path.join(tmp, "corpus"), os.path.join(tmp, "cu")
            for d in ("train", "dev"):
                os.makedirs(os.path.join(corpus, d))
            # 雨 and を are LM words; 帰社 (サ変), 登る (連用) and 横浜 (地域) are not; <unk> is the analyzer's
            text = {"chat": "雨/あめ/1/1 を/を/6/6 帰社/きしゃ/2/2\n横浜/よこはま/3/3 <unk> 登り/のぼり/4/4",
                    "aozora": "帰社/きしゃ/2/2 雨/あめ/1/1"}
            for name in vocab.MODERN + vocab.OLD:
                for d in ("train", "dev"):
                    with open(os.path.join(corpus, d, name + ".txt"), "w", encoding="utf-8") as f:
                        f.write(text.get(name, "") + "\n")
            id_def = os.path.join(tmp, "id.def")
            with open(id_def, "w", encoding="utf-8") as f:
                f.write(ID_DEF)
            old = os.path.join(tmp, "vocab.tsv")
            with open(old, "w", encoding="utf-8") as f:
                f.write("0\t<s>\t9\n1\t雨/あめ/1/1\t6\n2\t<unk>\t20\n3\tを/を/6/6\t3\n")
            unk_classes.cmd_vocab(argparse.Namespace(vocab_tsv=old, id_def=id_def, corpus=corpus,
                                                     dev_sents=10, out=out))
            with open(os.path.join(out, "vocab.tsv"), encoding="utf-8") as f:
                rows = [line.rstrip("\n").split("\t") for line in f]
            keys = [r[1] for r in rows]
            # the old ids stay; the classes (sorted names) follow
            self.assertEqual(keys[:4], ["<s>", "雨/あめ/1/1", "<unk>", "を/を/6/6"])
            names = sorted(set(unk_classes.class_of(line.split()[1]) for line in ID_DEF.splitlines()))
            self.assertEqual(keys[4:], [f"<unk:{n}>" for n in names])
            count = {r[1]: int(r[2]) for r in rows}
            modern = vocab.WEIGHT_MODERN
            self.assertEqual(count["<unk:名詞,サ変接続>"], modern + 1)
            self.assertEqual(count["<unk:動詞,連用>"], modern)
            # <unk> lost what the classes took
            self.assertEqual(count["<unk>"], 20 - (2 * modern + 1) - modern)
            classes = unk_classes.read_classes(out)
            self.assertEqual(int(classes["2"]), keys.index("<unk:名詞,サ変接続>"))
            self.assertEqual(int(classes["6"]), keys.index("<unk:その他>"))

            vocab.finetune_stream(argparse.Namespace(vocab_tsv=os.path.join(out, "vocab.tsv"), corpus=corpus,
                                                     weights="chat=1", block=500, seed=1, out=out,
                                                     save_encoded=None))
            ids = np.fromfile(os.path.join(out, "train.bin"), dtype=np.int32)
            want = [0, 1, 3, keys.index("<unk:名詞,サ変接続>"),
                    0, keys.index("<unk:名詞,固有名詞,地域>"), 2, keys.index("<unk:動詞,連用>")]
            self.assertEqual(list(ids[:len(want)]), want)

            from safetensors.numpy import load_file, save_file
            rng = np.random.default_rng(1)
            lstm = os.path.join(tmp, "lstm.safetensors")
            save_file({"embedding": rng.normal(size=(4, 3)).astype(np.float32),
                       "out_bias": np.array([0.0, -1.0, -2.0, -3.0], np.float32)}, lstm,
                      metadata={"vocab_size": "4"})
            init = os.path.join(tmp, "init.safetensors")
            unk_classes.cmd_init(argparse.Namespace(lstm=lstm, vocab_dir=out, out=init))
            t = load_file(init)
            self.assertEqual(t["embedding"].shape, (len(keys), 3))
            # <unk>'s probability is shared out over itself and the classes, in proportion to the counts
            p = np.exp(t["out_bias"].astype(np.float64))
            total = count["<unk>"] + sum(c for k, c in count.items() if k.startswith("<unk:"))
            self.assertEqual(total, 20)
            self.assertAlmostEqual(p[keys.index("<unk:名詞,サ変接続>")], np.exp(-2.0) * (modern + 1) / total)
            self.assertAlmostEqual(p[keys.index("<unk:動詞,連用>")], np.exp(-2.0) * modern / total)
            self.assertAlmostEqual(p[2], np.exp(-2.0) * count["<unk>"] / total)
            # the old rows stay
            self.assertTrue(np.array_equal(t["out_bias"][:2], [0.0, -1.0]))
            self.assertTrue(np.array_equal(t["embedding"][3], load_file(lstm)["embedding"][3]))

if __name__ == "__main__":
    unittest.main()
