//! Smoke tests of the `henkan` command line.
#[path = "../../../tests/common/mod.rs"]
mod common;

use std::process::Command;

fn henkan() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_henkan"));
    c.arg("--model").arg(common::shipped_path());
    c
}

fn run(c: &mut Command) -> (bool, String, String) {
    let out = c.output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `henkan --model MODEL eval conversion --json ARGS --input INPUT`: its JSON line.
fn eval_conversion(
    model: &std::path::Path,
    args: &[&str],
    input: &std::path::Path,
) -> serde_json::Value {
    let (ok, out, err) = run(Command::new(env!("CARGO_BIN_EXE_henkan"))
        .arg("--model")
        .arg(model)
        .args(["eval", "conversion", "--json"])
        .args(args)
        .arg("--input")
        .arg(input));
    assert!(ok, "{err}");
    serde_json::from_str(out.lines().last().unwrap()).unwrap()
}

fn tmp(name: &str, text: &str) -> std::path::PathBuf {
    let p = std::env::temp_dir().join(format!("henkan-cli-{}-{name}", std::process::id()));
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn convert_romaji() {
    let (ok, out, _) = run(henkan().args(["convert", "kyouhaiitenkidesune"]));
    assert!(ok);
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("今日はいい天気ですね"));
    assert!(lines.next().unwrap().starts_with("segments: "));
    assert_eq!(out.lines().filter(|l| l.contains(". ")).count(), 10);
}

#[test]
fn convert_reads_stdin_lines() {
    use std::io::Write;
    let mut child = henkan()
        .arg("convert")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all("わたしはがくせいです\n".as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("私は学生です\n"));
}

#[test]
fn eval_conversion_json() {
    let input = tmp(
        "eval.tsv",
        "# comment\nきょうはいいてんきですね\t今日はいい天気ですね\textra\nわたしはがくせいです\t僕は学生です\n",
    );
    let (ok, out, err) = run(henkan()
        .args(["eval", "conversion", "--json", "--input"])
        .arg(&input));
    assert!(ok, "{err}");
    let last = out.lines().last().unwrap();
    let v: serde_json::Value = serde_json::from_str(last).unwrap();
    // The shipped model has an LSTM LM: the default engine is the hybrid.
    assert_eq!(v["engine"], "hybrid");
    assert_eq!(v["sentences"], 2);
    assert_eq!(v["exact_top1"], 0.5);
    assert!(v["exact_top10"].as_f64().unwrap() >= 0.5);
    let f1 = v["char_f1"].as_f64().unwrap();
    assert!(f1 > 0.8 && f1 < 1.0, "{f1}");
    for k in ["mean_ms", "p95_ms"] {
        assert!(v[k].as_f64().unwrap() >= 0.0);
    }
    assert!(v.get("versus").is_none());

    // the same sentences with the classic engine beside it
    let (ok, out, err) = run(henkan()
        .args([
            "eval",
            "conversion",
            "--json",
            "--versus",
            "classic",
            "--input",
        ])
        .arg(&input));
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    let vs = &v["versus"];
    assert_eq!(vs["engine"], "classic");
    let (this, other) = (
        vs["only_this"].as_u64().unwrap(),
        vs["only_other"].as_u64().unwrap(),
    );
    let theirs = vs["exact_top1"].as_f64().unwrap();
    // the classic engine's own figure, and the difference they imply
    let (ok, out, _) = run(henkan()
        .args([
            "eval",
            "conversion",
            "--json",
            "--engine",
            "classic",
            "--input",
        ])
        .arg(&input));
    assert!(ok);
    let c: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(theirs, c["exact_top1"].as_f64().unwrap());
    let diff = vs["diff_points"].as_f64().unwrap();
    assert!((diff - 100.0 * (this as f64 - other as f64) / 2.0).abs() < 1e-9);
    assert!(
        (diff - 100.0 * (v["exact_top1"].as_f64().unwrap() - theirs)).abs() < 1e-9,
        "{v}"
    );
    assert!(vs["se_points"].as_f64().unwrap() >= 0.0);
}

#[test]
fn bench_keystroke_json() {
    let input = tmp(
        "bench.tsv",
        "きょうはいいてんきですね\t今日はいい天気ですね\n",
    );
    let (ok, out, err) = run(henkan()
        .args(["bench", "keystroke", "--json", "--input"])
        .arg(&input));
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(v["keys"], 12);
    for k in [
        "per_key_p50_ms",
        "per_key_p95_ms",
        "per_key_max_ms",
        "conversion_p50_ms",
    ] {
        assert!(v[k].as_f64().is_some(), "{k} missing");
    }
}

#[test]
fn a_missing_or_corrupt_model_is_a_clear_error() {
    let (ok, _, err) = run(Command::new(env!("CARGO_BIN_EXE_henkan")).args([
        "--model",
        "/nonexistent/model.henkan",
        "convert",
        "a",
    ]));
    assert!(!ok);
    assert!(
        err.contains("cannot read /nonexistent/model.henkan"),
        "{err}"
    );
    let bad = tmp("bad.henkan", "not a model at all");
    let (ok, _, err) = run(Command::new(env!("CARGO_BIN_EXE_henkan"))
        .arg("--model")
        .arg(&bad)
        .args(["convert", "a"]));
    assert!(!ok);
    assert!(err.contains("not a henkan model"), "{err}");
}

#[test]
fn build_model_from_tiny_sources() {
    let dir = std::env::temp_dir().join(format!("henkan-cli-build-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lex = dir.join("lex.tsv");
    std::fs::write(&lex, common::TINY_LEX).unwrap();
    let matrix = dir.join("matrix.bin");
    std::fs::write(&matrix, common::tiny_matrix()).unwrap();
    let id_def = dir.join("id.def");
    std::fs::write(&id_def, common::TINY_ID_DEF).unwrap();
    let seg = dir.join("segmenter.def");
    std::fs::write(&seg, common::TINY_SEGMENTER).unwrap();
    let out = dir.join("tiny.henkan");
    let (ok, _, err) = run(Command::new(env!("CARGO_BIN_EXE_henkan"))
        .args(["model", "build"])
        .arg("--lex")
        .arg(&lex)
        .arg("--matrix")
        .arg(&matrix)
        .arg("--id-def")
        .arg(&id_def)
        .arg("--segmenter-def")
        .arg(&seg)
        .arg("--out")
        .arg(&out));
    assert!(ok, "{err}");
    let (ok, stdout, err) = run(Command::new(env!("CARGO_BIN_EXE_henkan"))
        .arg("--model")
        .arg(&out)
        .args(["convert", "きょうは"]));
    assert!(ok, "{err}");
    assert!(stdout.starts_with("今日は\n"), "{stdout}");
}

/// `model repack` stores the shipped (compressed) model's sections as they are; the stored model
/// holds the same decoded sections and converts the same.
#[test]
fn repack_to_stored_keeps_every_section() {
    use henkan::model::{read_table, Container, Encoding};
    let out = std::env::temp_dir().join(format!("henkan-cli-{}-stored.henkan", std::process::id()));
    let (ok, _, err) = run(henkan().args(["model", "repack", "--out"]).arg(&out));
    assert!(ok, "{err}");
    let stored = std::fs::read(&out).unwrap();
    assert!(read_table(&stored)
        .unwrap()
        .iter()
        .all(|e| e.encoding == Encoding::Stored));
    let shipped = Container::from_bytes(std::fs::read(common::shipped_path()).unwrap()).unwrap();
    let again = Container::from_bytes(stored).unwrap();
    assert_eq!(shipped.entries().len(), again.entries().len());
    for (i, e) in shipped.entries().iter().enumerate() {
        assert_eq!(e.decoded_length, again.entries()[i].decoded_length);
        assert_eq!(
            shipped.section_at(i).unwrap().as_ref(),
            again.section_at(i).unwrap().as_ref(),
            "{:?}",
            e.kind
        );
    }
    let (ok, conv, _) = run(Command::new(env!("CARGO_BIN_EXE_henkan"))
        .arg("--model")
        .arg(&out)
        .args(["convert", "kyouhaiitenkidesune"]));
    assert!(ok);
    assert_eq!(conv.lines().next(), Some("今日はいい天気ですね"));
    let _ = std::fs::remove_file(&out);
}

/// Plain text goes through the training pipeline's analyzer; without it the error says how
/// to get it. With the analyzer built (`make corpus-tok`), the figures match `--tokens` on the
/// analyzed file.
#[test]
fn eval_prediction_plain_text() {
    let text = tmp("plain.txt", "今日はいい天気ですね\nよろしくお願いします\n");
    let (ok, _, err) = run(henkan()
        .args([
            "eval",
            "prediction",
            "--analyzer",
            "/nonexistent/analyzer",
            "--input",
        ])
        .arg(&text));
    assert!(!ok);
    assert!(err.contains("needs the training analyzer"), "{err}");
    assert!(err.contains("make corpus-tok"), "{err}");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let analyzer = root.join("target/release/henkan-tokenize");
    let (lex, matrix) = (
        root.join("build/mozc/lex.tsv"),
        root.join("build/mozc/matrix.bin"),
    );
    if !(analyzer.exists() && lex.exists() && matrix.exists()) {
        eprintln!("analyzer not built: plain-text analysis not run");
        return;
    }
    let (ok, out, err) = run(henkan()
        .args(["eval", "prediction", "--json", "--input"])
        .arg(&text)
        .arg("--analyzer")
        .arg(&analyzer)
        .arg("--lex")
        .arg(&lex)
        .arg("--matrix")
        .arg(&matrix));
    assert!(ok, "{err}");
    let r: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert!(r["words"].as_u64().unwrap() >= 5, "{r}");
}

/// `model info` prints the section table of the shipped model: every kind the runtime reads.
#[test]
fn model_info_lists_the_sections() {
    let (ok, out, err) = run(henkan().args(["model", "info"]));
    assert!(ok, "{err}");
    let first = out.lines().next().unwrap();
    assert!(
        first.contains(" bytes, ") && first.ends_with(" sections"),
        "{first}"
    );
    for kind in [
        "meta",
        "connection",
        "segmenter",
        "lstm",
        "ngram",
        "coherence",
    ] {
        assert!(
            out.lines()
                .any(|l| l.split_whitespace().next() == Some(kind)),
            "{kind} missing:\n{out}"
        );
    }
}

/// The user commands come first in `--help`; the model work sits under `henkan model`.
#[test]
fn help_lists_user_commands_then_model_work() {
    let (ok, out, _) = run(Command::new(env!("CARGO_BIN_EXE_henkan")).arg("--help"));
    assert!(ok);
    let commands: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(
        commands,
        ["convert", "predict", "eval", "bench", "fuzz", "model", "help"]
    );
    let (ok, out, _) = run(Command::new(env!("CARGO_BIN_EXE_henkan")).args(["model", "--help"]));
    assert!(ok);
    for c in [
        "build",
        "ngram",
        "repack",
        "info",
        "attach",
        "export-lstm",
        "mozc-rules",
    ] {
        assert!(out.contains(&format!("  {c} ")), "{c} missing:\n{out}");
    }
    let (ok, _, err) = run(henkan().args(["convert", "--engine", "fast", "a"]));
    assert!(!ok);
    assert!(
        err.contains("[possible values: classic, neural, hybrid]"),
        "{err}"
    );
}

#[test]
fn eval_conversion_versus_another_model() {
    let input = tmp(
        "eval-model.tsv",
        concat!(
            "きょうはいいてんきですね\t今日はいい天気ですね\n",
            "きしゃのきしゃがきしゃできしゃした\t貴社の記者が汽車で帰社した\n",
            "わたしはがくせいです\t私は学生です\n",
            "かいぎはあしたです\t会議は明日です\n",
            "だいがくでれきしをせんこうする\t大学で歴史を専攻する\n",
            "ねこのはなしをきいた\t猫の話を聞いた\n",
            "しゃしんをとるのがすきです\t写真を撮るのが好きです\n",
            "うみのちかくにすんでいます\t海の近くに住んでいます\n",
            "あたらしいさーびすをていきょうします\t新しいサービスを提供します\n",
            "きかいがこしょうした\t機械が故障した\n",
            "えきまであるいていきます\t駅まで歩いて行きます\n",
            "こうえんでこどもがあそんでいる\t公園で子供が遊んでいる\n",
        ),
    );
    // another model: the shipped one with the tiny CI LM, which converts worse (the neural
    // engine, all LM, shows it)
    let (bytes, _) =
        common::shipped_with_tiny_lm("lm-tiny", henkan_builder::lstm::VocabMatch::Spelling);
    let other = tmp("tiny-lm.henkan", "");
    std::fs::write(&other, bytes).unwrap();
    let shipped = common::shipped_path();
    let v = eval_conversion(
        &shipped,
        &[
            "--engine",
            "neural",
            "--versus-model",
            other.to_str().unwrap(),
        ],
        &input,
    );
    let figure = |model: &std::path::Path| {
        eval_conversion(model, &["--engine", "neural"], &input)["exact_top1"]
            .as_f64()
            .unwrap()
    };
    let vs = &v["versus"];
    // the same engine, the other model's conversions
    assert_eq!(vs["engine"], "neural");
    assert_eq!(vs["model"], other.display().to_string());
    assert_eq!(vs["exact_top1"].as_f64().unwrap(), figure(&other));
    assert_eq!(
        v["exact_top1"].as_f64().unwrap(),
        figure(&common::shipped_path())
    );
    // the two models disagree on some sentence
    assert!(
        vs["only_this"].as_u64().unwrap() + vs["only_other"].as_u64().unwrap() > 0,
        "{v}"
    );
    let diff = vs["diff_points"].as_f64().unwrap();
    assert!(
        (diff - 100.0 * (v["exact_top1"].as_f64().unwrap() - vs["exact_top1"].as_f64().unwrap()))
            .abs()
            < 1e-9,
        "{v}"
    );
    // a model that cannot be read is an error, not a comparison with nothing
    let (ok, _, err) = run(henkan()
        .args([
            "eval",
            "conversion",
            "--versus-model",
            "/nonexistent.henkan",
            "--input",
        ])
        .arg(&input));
    assert!(!ok);
    assert!(err.contains("nonexistent"), "{err}");
}
