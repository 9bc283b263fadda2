//! Decoding the lattice: the best path, n-best paths and segments.
//!
//! Terms:
//! - *path*: a sequence of lattice nodes covering a span of the reading without gaps.
//! - *path cost* (classic engine): Σ word cost + Σ connection cost, including the
//!   connections to the *left context* (the right id before the span, 0 = sentence start)
//!   and the *right context* (the left id after it, 0 = sentence end). Lower is better.
//! - *barrier*: a position no node may cross (a forced segment boundary after a resize).
//!
//! The forward pass is Viterbi over the nodes in end order; it can resume from a position
//! so a keystroke only scores the new nodes. N-best paths come from an A* search backwards
//! from the end, with the forward costs as the (exact) heuristic: paths pop in cost order.
//! Ties keep the earlier node (lower index = earlier lexicon order).

pub mod bias;
pub mod neural;

use crate::lattice::{is_katakana, Lattice, Node, LOANWORD_ENTRY};
use crate::lexicon::Lexicon;
use crate::pos::{Connection, Segmenter};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

const INF: i32 = i32::MAX / 4;
const NO_STATE: u32 = u32::MAX;

/// Bounds the A* search: at most this many states are popped per call.
pub const MAX_POPS: usize = 50_000;
/// A smaller bound for per-segment candidate lists.
pub const MAX_POPS_SEGMENT: usize = 5_000;

/// A span of the lattice to decode, with its context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// First position.
    pub begin: usize,
    /// Last position.
    pub end: usize,
    /// Right id of the word before the span (0 = beginning of sentence).
    pub left_context: u16,
    /// Left id of the word after the span (0 = end of sentence).
    pub right_context: u16,
}

impl Span {
    /// The whole lattice, from sentence start to sentence end.
    pub fn whole(lattice: &Lattice) -> Span {
        Span {
            begin: 0,
            end: lattice.len(),
            left_context: 0,
            right_context: 0,
        }
    }
}

/// A decoded path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Path {
    /// Node indices into [`Lattice::nodes`], in reading order.
    pub nodes: Vec<u32>,
    /// Total cost, contexts included.
    pub cost: i32,
}

#[derive(Debug, Clone, Copy)]
struct State {
    node: u32,
    next: u32,
    g: i32,
}

/// Forward costs and search scratch, reused between calls.
#[derive(Debug, Clone, Default)]
pub struct Decoder {
    fwd: Vec<i32>,
    back: Vec<u32>,
    states: Vec<State>,
    heap: BinaryHeap<Reverse<(i32, u32)>>,
}

fn crosses(node: &Node, barriers: &[usize]) -> bool {
    barriers
        .iter()
        .any(|&b| (node.begin as usize) < b && b < node.end as usize)
}

impl Decoder {
    /// New scratch.
    pub fn new() -> Self {
        Self::default()
    }

    /// The bytes of its scratch: forward costs per node, and the A* search's states and heap
    /// (at most [`MAX_POPS`] pops, whatever the input's length).
    pub fn buffer_bytes(&self) -> usize {
        self.fwd.capacity() * std::mem::size_of::<i32>()
            + self.back.capacity() * std::mem::size_of::<u32>()
            + self.states.capacity() * std::mem::size_of::<State>()
            + self.heap.capacity() * std::mem::size_of::<Reverse<(i32, u32)>>()
    }

    /// Viterbi forward pass over `span`, recomputing only nodes that end after `from`
    /// (pass `span.begin` for a full pass). Nodes outside the span or crossing a barrier
    /// get an infinite cost.
    pub fn forward(
        &mut self,
        lattice: &Lattice,
        conn: &Connection,
        span: Span,
        barriers: &[usize],
        from: usize,
    ) {
        let nodes = lattice.nodes();
        if self.fwd.len() < nodes.len() {
            self.fwd.resize(nodes.len(), INF);
            self.back.resize(nodes.len(), u32::MAX);
        }
        let from = from.max(span.begin);
        // Nodes ending at or before `from` but inside the span keep their costs; nodes
        // ending before the span are never read.
        for p in from + 1..=span.end {
            for i in lattice.ending_at(p) {
                let n = &nodes[i];
                let b = n.begin as usize;
                if b < span.begin || crosses(n, barriers) {
                    self.fwd[i] = INF;
                    continue;
                }
                let (mut best, mut arg) = if b == span.begin {
                    (conn.cost(span.left_context, n.left_id), u32::MAX)
                } else {
                    (INF, u32::MAX)
                };
                if b > span.begin {
                    for j in lattice.ending_at(b) {
                        let f = self.fwd[j];
                        if f >= INF {
                            continue;
                        }
                        let c = f + conn.cost(nodes[j].right_id, n.left_id);
                        // strict: ties keep the earlier node
                        if c < best {
                            best = c;
                            arg = j as u32;
                        }
                    }
                }
                self.fwd[i] = if best >= INF { INF } else { best + n.cost };
                self.back[i] = arg;
            }
        }
    }

    /// The best path of `span` after [`Decoder::forward`] over it.
    pub fn best_path(&self, lattice: &Lattice, conn: &Connection, span: Span) -> Option<Path> {
        let nodes = lattice.nodes();
        let mut best = INF;
        let mut arg = u32::MAX;
        for i in lattice.ending_at(span.end) {
            if self.fwd[i] >= INF || (nodes[i].begin as usize) < span.begin {
                continue;
            }
            let c = self.fwd[i] + conn.cost(nodes[i].right_id, span.right_context);
            if c < best {
                best = c;
                arg = i as u32;
            }
        }
        if arg == u32::MAX {
            return None;
        }
        let mut path = Vec::new();
        let mut i = arg;
        while i != u32::MAX {
            path.push(i);
            if nodes[i as usize].begin as usize == span.begin {
                break;
            }
            i = self.back[i as usize];
        }
        path.reverse();
        Some(Path {
            nodes: path,
            cost: best,
        })
    }

    /// Up to `want` best paths of `span` whose `key`s are distinct, in cost order, among the
    /// paths `within` allows ([`Within::ALL`]: every path).
    ///
    /// Runs its own forward pass over the span. `key` maps a path (node indices) to what
    /// makes it distinct, e.g. its surface. The search never extends a path across two words
    /// that do not join, nor goes on once paths are dearer than the first found by more than
    /// `within.max_extra`, so the paths left out cost no pops.
    #[allow(clippy::too_many_arguments)]
    pub fn n_best<K: PartialEq>(
        &mut self,
        lattice: &Lattice,
        conn: &Connection,
        span: Span,
        barriers: &[usize],
        want: usize,
        max_pops: usize,
        within: Within<impl Fn(&Node, &Node) -> bool>,
        mut key: impl FnMut(&[u32]) -> K,
    ) -> Vec<(Path, K)> {
        let join = within.join;
        self.forward(lattice, conn, span, barriers, span.begin);
        let nodes = lattice.nodes();
        self.states.clear();
        self.heap.clear();
        for i in lattice.ending_at(span.end) {
            if self.fwd[i] >= INF || (nodes[i].begin as usize) < span.begin {
                continue;
            }
            let g = conn.cost(nodes[i].right_id, span.right_context);
            self.states.push(State {
                node: i as u32,
                next: NO_STATE,
                g,
            });
            self.heap
                .push(Reverse((self.fwd[i] + g, (self.states.len() - 1) as u32)));
        }
        let mut found: Vec<(Path, K)> = Vec::new();
        let mut pops = 0;
        let mut scratch = Vec::new();
        while let Some(Reverse((f, s))) = self.heap.pop() {
            pops += 1;
            if pops > max_pops || found.len() >= want {
                break;
            }
            if found
                .first()
                .is_some_and(|(p, _)| f > p.cost.saturating_add(within.max_extra))
            {
                break;
            }
            let st = self.states[s as usize];
            let v = nodes[st.node as usize];
            if v.begin as usize == span.begin {
                scratch.clear();
                let mut t = s;
                while t != NO_STATE {
                    scratch.push(self.states[t as usize].node);
                    t = self.states[t as usize].next;
                }
                let k = key(&scratch);
                if !found.iter().any(|(_, other)| *other == k) {
                    found.push((
                        Path {
                            nodes: scratch.clone(),
                            cost: f,
                        },
                        k,
                    ));
                }
                continue;
            }
            for j in lattice.ending_at(v.begin as usize) {
                let fj = self.fwd[j];
                if fj >= INF || !join(&nodes[j], &v) {
                    continue;
                }
                let g = st.g + v.cost + conn.cost(nodes[j].right_id, v.left_id);
                self.states.push(State {
                    node: j as u32,
                    next: s,
                    g,
                });
                self.heap
                    .push(Reverse((fj + g, (self.states.len() - 1) as u32)));
            }
        }
        found
    }
}

/// Which paths [`Decoder::n_best`] looks for.
#[derive(Debug, Clone, Copy)]
pub struct Within<J> {
    /// Whether two adjacent words (left, right) may both be on a path.
    pub join: J,
    /// How much dearer than the first path found a path may be.
    pub max_extra: i32,
}

impl Within<fn(&Node, &Node) -> bool> {
    /// Every path.
    pub const ALL: Self = Within {
        join: |_, _| true,
        max_extra: i32::MAX,
    };
}

/// Splits a path into segments: returns the index (into `path`) where each segment starts.
///
/// A boundary falls between two nodes when the segmenter says so, and always at a
/// barrier; inside `[0, fixed_end)` only barriers split. A loanword mora
/// ([`crate::lattice::LOANWORD_ENTRY`]) stays in one segment with the katakana beside it
/// (`グラン` + `ジェ`: the word the dictionary lacks is one segment).
pub fn segment_starts(
    lattice: &Lattice,
    lexicon: &Lexicon,
    segmenter: &Segmenter,
    path: &[u32],
    barriers: &[usize],
    fixed_end: usize,
) -> Vec<usize> {
    let nodes = lattice.nodes();
    let katakana = |c: Option<char>| c.is_some_and(is_katakana);
    let mut starts = vec![0];
    for k in 1..path.len() {
        let a = &nodes[path[k - 1] as usize];
        let b = &nodes[path[k] as usize];
        let pos = b.begin as usize;
        let boundary = if barriers.contains(&pos) {
            true
        } else {
            let mora_joins = b.entry == LOANWORD_ENTRY
                && katakana(lattice.surface(lexicon, a).chars().next_back())
                || a.entry == LOANWORD_ENTRY
                    && katakana(lattice.surface(lexicon, b).chars().next());
            pos >= fixed_end && !mora_joins && segmenter.is_boundary(a.right_id, b.left_id)
        };
        if boundary {
            starts.push(k);
        }
    }
    starts
}
