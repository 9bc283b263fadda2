//! `henkan`: the native command line — convert, evaluate, benchmark, build models.

use clap::{Parser, Subcommand, ValueEnum};
use henkan::build::{build_model, BuildOptions};
use henkan::{Engine, Session};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::Instant;

/// `println!` that ignores a closed stdout (e.g. `henkan convert … | head`).
macro_rules! outln {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

#[derive(Parser)]
#[command(
    name = "henkan",
    version,
    about = "Japanese input method engine (romaji → kana → kanji)"
)]
struct Cli {
    /// Model file (default: $HENKAN_MODEL or models/henkan.henkan).
    #[arg(long, global = true)]
    model: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
enum EngineKind {
    Classic,
}

impl EngineKind {
    fn name(self) -> &'static str {
        match self {
            EngineKind::Classic => "classic",
        }
    }
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
enum Digits {
    Full,
    Half,
}

#[derive(Subcommand)]
enum Command {
    /// Convert TEXT (romaji or kana) and print the best conversion, segments and n-best.
    /// Without TEXT, reads one input per line from stdin (an interactive loop).
    Convert {
        /// Romaji (e.g. kyouhaiitenkidesune) or kana.
        text: Option<String>,
        #[arg(long, value_enum, default_value = "classic")]
        engine: EngineKind,
        /// Print the best path's words with their POS ids and costs.
        #[arg(long)]
        debug: bool,
    },
    /// Evaluate.
    Eval {
        #[command(subcommand)]
        what: EvalWhat,
    },
    /// Benchmark.
    Bench {
        #[command(subcommand)]
        what: BenchWhat,
    },
    /// Build a model container from Mozc's dictionary (see `make model`).
    BuildModel {
        /// lex.tsv from training/mozc_extract.py.
        #[arg(long, default_value = "build/mozc/lex.tsv")]
        lex: PathBuf,
        /// Mozc's matrix.bin.
        #[arg(long, default_value = "build/mozc/matrix.bin")]
        matrix: PathBuf,
        /// Mozc's id.def.
        #[arg(long, default_value = "../shared/data/mozc/id.def")]
        id_def: PathBuf,
        /// Mozc's segmenter.def.
        #[arg(long, default_value = "../shared/data/mozc/segmenter.def")]
        segmenter_def: PathBuf,
        /// Output model file.
        #[arg(long)]
        out: PathBuf,
        /// Drop entries whose cost is above this.
        #[arg(long)]
        max_cost: Option<i32>,
        /// Keep at most this many entries per reading.
        #[arg(long)]
        max_per_reading: Option<usize>,
        /// Drop readings longer than this many characters.
        #[arg(long)]
        max_reading_chars: Option<usize>,
        /// Connection-cost quantization step.
        #[arg(long, default_value_t = 1)]
        conn_step: i32,
        /// Bytes per connection cell (1 or 2).
        #[arg(long, default_value_t = 2)]
        conn_width: usize,
        /// Cluster left/right POS ids into K classes each (k-means) for a smaller matrix.
        #[arg(long)]
        conn_clusters: Option<usize>,
        /// Keep the entries listed in this file (`reading<TAB>surface<TAB>left<TAB>right<TAB>count`,
        /// from training/entry_counts.py) whatever --max-cost says.
        #[arg(long)]
        keep: Option<PathBuf>,
        /// Only keep-list entries seen at least this often.
        #[arg(long, default_value_t = 1)]
        keep_min_count: u64,
        /// Name recorded in the model.
        #[arg(long, default_value = "custom")]
        name: String,
    },
}

#[derive(Subcommand)]
enum EvalWhat {
    /// Whole-sentence conversion accuracy over `reading<TAB>expected` lines.
    Conversion {
        #[arg(long)]
        input: PathBuf,
        #[arg(long, value_enum, default_value = "classic")]
        engine: EngineKind,
        /// Print one JSON object as the last line.
        #[arg(long)]
        json: bool,
        /// Only the first N sentences.
        #[arg(long)]
        limit: Option<usize>,
        /// Print each wrong conversion.
        #[arg(long)]
        errors: bool,
        /// How digits of converted numbers are written.
        #[arg(long, value_enum, default_value = "full")]
        digits: Digits,
    },
}

#[derive(Subcommand)]
enum BenchWhat {
    /// Types each reading one kana at a time through a Session; per-key latency.
    Keystroke {
        #[arg(long)]
        input: PathBuf,
        #[arg(long, value_enum, default_value = "classic")]
        engine: EngineKind,
        #[arg(long)]
        json: bool,
        #[arg(long)]
        limit: Option<usize>,
    },
}

fn model_path(cli: &Option<PathBuf>) -> PathBuf {
    if let Some(p) = cli {
        return p.clone();
    }
    if let Ok(p) = std::env::var("HENKAN_MODEL") {
        return PathBuf::from(p);
    }
    let local = PathBuf::from("models/henkan.henkan");
    if local.exists() {
        return local;
    }
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/models/henkan.henkan"))
}

fn load(cli: &Option<PathBuf>) -> Result<Engine, String> {
    let path = model_path(cli);
    let bytes = std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Engine::from_bytes(bytes).map_err(|e| format!("{}: {e}", path.display()))
}

fn read_pairs(path: &PathBuf, limit: Option<usize>) -> Result<Vec<(String, String)>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let mut f = line.split('\t');
        let reading = f.next().unwrap_or("").to_string();
        let expected = f.next().unwrap_or("").to_string();
        out.push((reading, expected));
        if limit.is_some_and(|l| out.len() >= l) {
            break;
        }
    }
    Ok(out)
}

fn lcs(a: &[char], b: &[char]) -> usize {
    let mut prev = vec![0usize; b.len() + 1];
    let mut cur = vec![0usize; b.len() + 1];
    for &x in a {
        for (j, &y) in b.iter().enumerate() {
            cur[j + 1] = if x == y {
                prev[j] + 1
            } else {
                cur[j].max(prev[j + 1])
            };
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn is_romaji(text: &str) -> bool {
    text.chars().any(|c| c.is_ascii_alphabetic())
}

fn print_conversion(engine: &Engine, session: &mut Session, text: &str, debug: bool) {
    let conv = if is_romaji(text) {
        session.clear();
        session.insert_str(engine, text);
        session.convert(engine)
    } else {
        session.clear();
        session.convert_reading(engine, text)
    };
    outln!("{}", conv.text());
    let segs: Vec<String> = conv
        .segments
        .iter()
        .map(|s| format!("{}({})", s.candidates[0], s.reading))
        .collect();
    outln!("segments: {}", segs.join(" | "));
    for (i, s) in conv.nbest.iter().enumerate() {
        outln!("{:>2}. {s}", i + 1);
    }
    if debug {
        if let Some(path) = session.best_path(engine) {
            let lat = session.lattice();
            let mut prev = 0u16;
            for &i in &path.nodes {
                let n = lat.nodes()[i as usize];
                outln!(
                    "  {}\t{}\tleft {} right {} cost {} conn {}",
                    lat.span(n.begin as usize, n.end as usize),
                    lat.surface(&engine.lexicon, &n),
                    n.left_id,
                    n.right_id,
                    n.cost,
                    engine.connection.cost(prev, n.left_id)
                );
                prev = n.right_id;
            }
        }
    }
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Convert {
            text,
            engine: _,
            debug,
        } => {
            let engine = load(&cli.model)?;
            let mut session = Session::new();
            match text {
                Some(t) => print_conversion(&engine, &mut session, &t, debug),
                None => {
                    let stdin = std::io::stdin();
                    eprintln!("henkan: type romaji or kana, one line per conversion (Ctrl-D ends)");
                    for line in stdin.lock().lines() {
                        let line = line.map_err(|e| e.to_string())?;
                        let t = line.trim();
                        if !t.is_empty() {
                            print_conversion(&engine, &mut session, t, debug);
                            std::io::stdout().flush().ok();
                        }
                    }
                }
            }
        }
        Command::Eval {
            what:
                EvalWhat::Conversion {
                    input,
                    engine: kind,
                    json,
                    limit,
                    errors,
                    digits,
                },
        } => {
            let engine = load(&cli.model)?;
            let pairs = read_pairs(&input, limit)?;
            let mut session = Session::new();
            session.set_digit_width(match digits {
                Digits::Full => henkan::lattice::DigitWidth::Full,
                Digits::Half => henkan::lattice::DigitWidth::Half,
            });
            let (mut top1, mut top10) = (0usize, 0usize);
            let (mut sum_lcs, mut sum_got, mut sum_exp) = (0usize, 0usize, 0usize);
            let mut times = Vec::with_capacity(pairs.len());
            for (reading, expected) in &pairs {
                session.clear();
                let t0 = Instant::now();
                let conv = session.convert_reading(&engine, reading);
                times.push(t0.elapsed().as_secs_f64() * 1000.0);
                let got = conv.text();
                if got == *expected {
                    top1 += 1;
                } else if errors {
                    outln!("{reading}\n  want {expected}\n  got  {got}");
                }
                if conv.nbest.iter().any(|s| s == expected) {
                    top10 += 1;
                }
                let g: Vec<char> = got.chars().collect();
                let e: Vec<char> = expected.chars().collect();
                sum_lcs += lcs(&g, &e);
                sum_got += g.len();
                sum_exp += e.len();
            }
            let n = pairs.len().max(1) as f64;
            let p = sum_lcs as f64 / sum_got.max(1) as f64;
            let r = sum_lcs as f64 / sum_exp.max(1) as f64;
            let f1 = if p + r > 0.0 {
                2.0 * p * r / (p + r)
            } else {
                0.0
            };
            let mean = times.iter().sum::<f64>() / n;
            times.sort_by(|a, b| a.total_cmp(b));
            let result = serde_json::json!({
                "engine": kind.name(),
                "digits": format!("{digits:?}").to_lowercase(),
                "sentences": pairs.len(),
                "exact_top1": top1 as f64 / n,
                "exact_top10": top10 as f64 / n,
                "char_f1": f1,
                "mean_ms": mean,
                "p95_ms": percentile(&times, 0.95),
            });
            if json {
                outln!("{result}");
            } else {
                outln!(
                    "{} sentences: exact top-1 {:.1}%, top-10 {:.1}%, char F1 {:.1}%, mean {:.2} ms, p95 {:.2} ms",
                    pairs.len(),
                    100.0 * top1 as f64 / n,
                    100.0 * top10 as f64 / n,
                    100.0 * f1,
                    mean,
                    percentile(&times, 0.95)
                );
            }
        }
        Command::Bench {
            what:
                BenchWhat::Keystroke {
                    input,
                    engine: kind,
                    json,
                    limit,
                },
        } => {
            let engine = load(&cli.model)?;
            let pairs = read_pairs(&input, limit)?;
            let mut session = Session::new();
            let mut keys = Vec::new();
            let mut convs = Vec::new();
            let mut sink = 0usize;
            for (reading, _) in &pairs {
                session.clear();
                for c in reading.chars() {
                    let t0 = Instant::now();
                    session.insert(&engine, c);
                    sink += session.best_text(&engine).len();
                    keys.push(t0.elapsed().as_secs_f64() * 1000.0);
                }
                let t0 = Instant::now();
                let conv = session.convert(&engine);
                convs.push(t0.elapsed().as_secs_f64() * 1000.0);
                sink += conv.nbest.len();
            }
            keys.sort_by(|a, b| a.total_cmp(b));
            convs.sort_by(|a, b| a.total_cmp(b));
            let result = serde_json::json!({
                "engine": kind.name(),
                "sentences": pairs.len(),
                "keys": keys.len(),
                "per_key_p50_ms": percentile(&keys, 0.5),
                "per_key_p95_ms": percentile(&keys, 0.95),
                "per_key_max_ms": keys.last().copied().unwrap_or(0.0),
                "per_key_mean_ms": keys.iter().sum::<f64>() / keys.len().max(1) as f64,
                "conversion_p50_ms": percentile(&convs, 0.5),
                "conversion_p95_ms": percentile(&convs, 0.95),
                "conversion_mean_ms": convs.iter().sum::<f64>() / convs.len().max(1) as f64,
            });
            if !json {
                eprintln!("(checksum {sink})");
            }
            outln!("{result}");
        }
        Command::BuildModel {
            lex,
            matrix,
            id_def,
            segmenter_def,
            out,
            max_cost,
            max_per_reading,
            max_reading_chars,
            conn_step,
            conn_width,
            conn_clusters,
            keep,
            keep_min_count,
            name,
        } => {
            let read = |p: &PathBuf| {
                std::fs::read_to_string(p).map_err(|e| format!("cannot read {}: {e}", p.display()))
            };
            let lex_text = read(&lex)?;
            let matrix_bytes = std::fs::read(&matrix)
                .map_err(|e| format!("cannot read {}: {e}", matrix.display()))?;
            let opts = BuildOptions {
                max_cost,
                max_per_reading,
                max_reading_chars,
                conn_step,
                conn_width,
                conn_clusters: conn_clusters.map(|k| (k, k)),
                keep: match &keep {
                    None => None,
                    Some(p) => Some(
                        read(p)?
                            .lines()
                            .filter_map(|l| {
                                let f: Vec<&str> = l.split('\t').collect();
                                let n: u64 = f.get(4)?.parse().ok()?;
                                (n >= keep_min_count).then(|| f[..4].join("\t"))
                            })
                            .collect(),
                    ),
                },
                extra_sections: Vec::new(),
                name,
            };
            let (bytes, report) = build_model(
                &lex_text,
                &matrix_bytes,
                &read(&id_def)?,
                &read(&segmenter_def)?,
                &opts,
            )
            .map_err(|e| e.to_string())?;
            if let Some(dir) = out.parent() {
                std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
            }
            std::fs::write(&out, &bytes)
                .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
            eprintln!(
                "{}: {} of {} entries, {} readings, {} bytes",
                out.display(),
                report.entries_kept,
                report.entries_in,
                report.readings,
                report.total
            );
            for (name, len) in report.sections {
                eprintln!("  {name:<18} {len:>10}");
            }
        }
    }
    Ok(())
}

fn main() {
    let cli = Cli::parse();
    if let Err(e) = run(cli) {
        eprintln!("henkan: {e}");
        std::process::exit(1);
    }
}
