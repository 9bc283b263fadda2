"""training/selection_centroids.py: the centroids of the nouns each particle and predicate take."""
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "training"))

import selection_centroids  # noqa: E402

ID_DEF = """10 名詞,一般,*,*,*,*,*
11 名詞,サ変接続,*,*,*,*,*
12 名詞,数,*,*,*,*,*
20 助詞,格助詞,一般,*,*,*,が
21 助詞,係助詞,*,*,*,*,は
30 形容詞,自立,*,*,形容詞・アウオ段,基本形,*
31 動詞,自立,*,*,五段・ラ行,連用タ接続,*
"""


def tok(surface, reading, pos):
    return f"{surface}/{reading}/{pos}/{pos}"


class Triples(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.id_def = os.path.join(self.dir, "id.def")
        with open(self.id_def, "w", encoding="utf-8") as f:
            f.write(ID_DEF)

    def corpus(self, lines):
        path = os.path.join(self.dir, "corpus.txt")
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(" ".join(line) for line in lines) + "\n")
        return path

    def test_a_content_noun_a_particle_and_a_predicate_are_counted(self):
        cls = selection_centroids.pos_classes(self.id_def)
        path = self.corpus([
            [tok("お湯", "おゆ", 10), tok("は", "は", 21), tok("熱い", "あつい", 30)],
            # a サ変 noun is a noun and a predicate: 機械 が 故障
            [tok("機械", "きかい", 10), tok("が", "が", 20), tok("故障", "こしょう", 11)],
            # a number is no content noun; two particles in a row are no triple
            [tok("三", "さん", 12), tok("が", "が", 20), tok("熱い", "あつい", 30)],
            [tok("鍋", "なべ", 10), tok("が", "が", 20), tok("は", "は", 21), tok("熱い", "あつい", 30)],
        ])
        c = selection_centroids.triples([path], cls)
        self.assertEqual(c, {
            ("お湯", "は", "熱い", "あつい"): 1,
            ("機械", "が", "故障", "こしょう"): 1,
        })

    def test_a_centroid_is_written_for_a_predicate_with_a_homophone_of_other_kanji(self):
        vec_dir = os.path.join(self.dir, "vectors")
        os.makedirs(vec_dir)
        rows = {"お湯": 0, "スープ": 1, "部屋": 2, "熱い": 3, "暑い": 4}
        v = np.eye(64, dtype="<f4")[:5]
        v.tofile(os.path.join(vec_dir, "vectors.f32"))
        with open(os.path.join(vec_dir, "words.tsv"), "w", encoding="utf-8") as f:
            f.writelines(f"{w}\t{r}\n" for w, r in rows.items())
        lex = os.path.join(self.dir, "lex.tsv")
        with open(lex, "w", encoding="utf-8") as f:
            f.write("あつい\t30\t30\t3000\t熱い\nあつい\t30\t30\t3000\t暑い\nおゆ\t10\t10\t3000\tお湯\n")
        lines = [[tok(n, "x", 10), tok("は", "は", 21), tok("熱い", "あつい", 30)]
                 for n in ["お湯"] * 3 + ["スープ"] * 2]
        lines += [[tok("部屋", "へや", 10), tok("は", "は", 21), tok("暑い", "あつい", 30)]] * 2
        out = os.path.join(self.dir, "centroids.tsv")
        subprocess.run([sys.executable, os.path.join(ROOT, "training", "selection_centroids.py"),
                        "--vectors", vec_dir, "--id-def", self.id_def, "--lexicon", lex,
                        "--min", "5", "--out", out, self.corpus(lines)],
                       check=True, capture_output=True)
        with open(out, encoding="utf-8") as f:
            fields = [line.rstrip("\n").split("\t") for line in f]
        self.assertEqual([f[:2] for f in fields if f[0] == "mean"], [["mean", "は"]])
        pairs = [f for f in fields if f[0] == "pair"]
        # 熱い was seen 5 times, 暑い twice (below --min)
        self.assertEqual([f[1:4] for f in pairs], [["は", "熱い", "あつい"]])
        c = np.array(pairs[0][5:], dtype="f8")
        self.assertAlmostEqual(float(np.linalg.norm(c)), 1.0, places=4)
        # お湯 (3 times) weighs more than スープ (twice), 部屋 not at all
        self.assertGreater(c[0], c[1])
        self.assertGreater(c[1], 0)
        self.assertEqual(c[2], 0)


if __name__ == "__main__":
    unittest.main()
