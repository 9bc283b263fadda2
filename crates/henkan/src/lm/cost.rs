//! The classic cost model: Σ word cost + Σ connection cost along a path.
//!
//! A path `w1 … wk` in a span with left context `l` and right context `r` costs
//! `conn(l, w1.left) + w1.cost + conn(w1.right, w2.left) + … + wk.cost + conn(wk.right, r)`,
//! where `conn(prev_right, next_left)` is Mozc's connection matrix. Lower is likelier;
//! costs are scaled negative log-probabilities.

use crate::decoder::Span;
use crate::lattice::Lattice;
use crate::pos::Connection;

/// The cost of a path (node indices) in a span, contexts included.
pub fn path_cost(lattice: &Lattice, conn: &Connection, span: Span, path: &[u32]) -> i32 {
    let nodes = lattice.nodes();
    let mut prev = span.left_context;
    let mut total = 0;
    for &i in path {
        let n = &nodes[i as usize];
        total += conn.cost(prev, n.left_id) + n.cost;
        prev = n.right_id;
    }
    total + conn.cost(prev, span.right_context)
}
