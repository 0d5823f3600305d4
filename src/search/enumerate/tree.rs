//! The tree of every tape run so far: a trie over the unforced choices, with a depth-first
//! cursor that finds the next tape no run has drawn, in simplicity order within a size.

use crate::tape::Status;

/// Index of a node in the tree's arena.
type NodeId = u32;

/// No node (the end of a sibling list, no first child).
const NONE: NodeId = NodeId::MAX;

/// One position of a tape: a choice point whose children are the indices tried so far, or
/// the end of a test case. 32 bytes, no allocation of its own: children are a sorted list of
/// siblings, which stays short (an index is tried only while the size allows it).
#[derive(Clone, Copy, Debug)]
struct Node {
    /// Largest index of the choice point (meaningless at an end).
    max: u64,
    /// The index that leads here from the parent.
    index: u64,
    /// First child (lowest index).
    first: NodeId,
    /// Next sibling (higher index).
    next: NodeId,
    /// The test case ended here (no more choices) with this status.
    end: Option<Status>,
    /// A pattern forced the index here: the only index to explore, and it adds no size.
    fixed: bool,
}

impl Node {
    fn new(index: u64) -> Node {
        Node {
            max: 0,
            index,
            first: NONE,
            next: NONE,
            end: None,
            fixed: false,
        }
    }
}

/// One step of the cursor: a node, the size of the path to it, and the next index to try.
#[derive(Clone, Copy, Debug)]
struct Frame {
    node: NodeId,
    size: u64,
    next: u64,
}

/// One choice of a run, as the tree stores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Branch {
    /// The choice point's largest index.
    pub max: u64,
    /// The index drawn.
    pub index: u64,
    /// A pattern forced the index (explored only at this index, adds no size).
    pub fixed: bool,
}

/// The tree of tapes run, and the cursor of the current size.
///
/// The **size** of a tape is the sum of its unforced, unfixed indices: index 0 is the
/// simplest option of every choice, so the all-zero tape (size 0) is the simplest value, a
/// list of `k` elements costs at least `k` ("one more?" coins), an integer `v` costs about
/// `2|v|`. For a size `n`, the cursor visits every path of size `≤ n` in lexicographic
/// order of indices and yields each prefix that no run has extended yet: the prefix followed
/// by zeros is a tape of that size nobody ran. A run that ended (valid, rejected or overrun)
/// is a leaf: every tape sharing its prefix is the same test case, so a rejection early in
/// the tape prunes everything after it.
#[derive(Clone, Debug)]
pub struct Tree {
    nodes: Vec<Node>,
    stack: Vec<Frame>,
    size: u64,
    /// Some index was skipped because it would exceed the size (the space goes on).
    cut: bool,
    /// Nodes the tree may hold.
    limit: usize,
}

/// What the cursor found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// This prefix, then zeros: a tape no run has drawn.
    Tape(Vec<u64>),
    /// Every tape of size `≤ n` has run; `cut` says whether larger ones exist.
    Done {
        /// Whether some tape is larger than the size (false: the space is finite and fully
        /// explored).
        cut: bool,
    },
    /// The tree holds as many nodes as it may.
    Full,
}

impl Tree {
    /// An empty tree (no run yet) that holds at most `limit` nodes, with the cursor at size 0.
    pub fn new(limit: usize) -> Tree {
        let mut t = Tree {
            nodes: vec![Node::new(0)],
            stack: Vec::new(),
            size: 0,
            cut: false,
            limit: limit.max(1),
        };
        t.restart(0);
        t
    }

    /// Whether anything has run.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() == 1 && self.nodes[0].first == NONE && self.nodes[0].end.is_none()
    }

    /// Nodes held.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// The size the cursor enumerates.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Starts the cursor over at size `n`.
    pub fn restart(&mut self, n: u64) {
        self.size = n;
        self.cut = false;
        self.stack.clear();
        self.stack.push(Frame {
            node: 0,
            size: 0,
            next: 0,
        });
    }

    /// The next prefix to run at the cursor's size.
    pub fn next_tape(&mut self) -> Next {
        if self.is_empty() {
            return Next::Tape(Vec::new());
        }
        if self.nodes.len() >= self.limit {
            return Next::Full;
        }
        while let Some(&top) = self.stack.last() {
            let node = self.nodes[top.node as usize];
            if node.end.is_some() {
                self.stack.pop();
                continue;
            }
            let budget = self.size - top.size;
            let (index, cost) = if node.fixed {
                match node.first {
                    f if f != NONE && top.next <= self.nodes[f as usize].index => {
                        (self.nodes[f as usize].index, 0)
                    }
                    _ => {
                        self.stack.pop();
                        continue;
                    }
                }
            } else {
                (top.next, top.next)
            };
            if index > node.max {
                self.stack.pop();
                continue;
            }
            if cost > budget {
                self.cut = true;
                self.stack.pop();
                continue;
            }
            match self.kid(top.node, index) {
                Some(kid) => {
                    self.stack.last_mut().expect("top").next = index + 1;
                    self.stack.push(Frame {
                        node: kid,
                        size: top.size + cost,
                        next: 0,
                    });
                }
                None => {
                    // Not advanced: once the run is in the tree, the cursor walks into it.
                    self.stack.last_mut().expect("top").next = index;
                    let mut prefix: Vec<u64> = self.stack[..self.stack.len() - 1]
                        .iter()
                        .map(|f| f.next - 1)
                        .collect();
                    prefix.push(index);
                    return Next::Tape(prefix);
                }
            }
        }
        Next::Done { cut: self.cut }
    }

    /// Moves the cursor past the prefix it last yielded when the run did not add it (a
    /// generator that draws differently on the same prefix), so that it never loops.
    pub fn skip(&mut self) {
        if let Some(top) = self.stack.last_mut() {
            top.next += 1;
        }
    }

    /// Whether the tree has a path for `prefix` (the last yielded one, after its run).
    pub fn has(&self, prefix: &[u64]) -> bool {
        let mut at = 0;
        for &i in prefix {
            let node = &self.nodes[at as usize];
            if node.end.is_some() {
                return true;
            }
            match self.kid(at, i) {
                Some(k) => at = k,
                None => return false,
            }
        }
        true
    }

    /// Adds a run: its unforced choices in order, ended after `steps` with `status`. A choice
    /// point that the tree knows with another range takes the new one (a generator that is
    /// not a function of its tape; the tree stays usable).
    pub fn insert(&mut self, steps: &[Branch], status: Status) {
        let mut at: NodeId = 0;
        for s in steps {
            let node = &mut self.nodes[at as usize];
            if node.end.is_some() {
                // An earlier run ended here on this prefix: keep the earlier end.
                return;
            }
            node.max = s.max;
            node.fixed |= s.fixed;
            at = match self.kid(at, s.index) {
                Some(k) => k,
                None => self.add_kid(at, s.index),
            };
        }
        let node = &mut self.nodes[at as usize];
        if node.first == NONE {
            node.end = Some(status);
        }
    }

    /// The child of `node` at `index`, if a run went there.
    fn kid(&self, node: NodeId, index: u64) -> Option<NodeId> {
        let mut k = self.nodes[node as usize].first;
        while k != NONE {
            let n = &self.nodes[k as usize];
            if n.index >= index {
                return (n.index == index).then_some(k);
            }
            k = n.next;
        }
        None
    }

    /// Adds the child of `node` at `index` to its sorted list of children.
    fn add_kid(&mut self, node: NodeId, index: u64) -> NodeId {
        let id = self.nodes.len() as NodeId;
        self.nodes.push(Node::new(index));
        let mut prev = NONE;
        let mut k = self.nodes[node as usize].first;
        while k != NONE && self.nodes[k as usize].index < index {
            prev = k;
            k = self.nodes[k as usize].next;
        }
        self.nodes[id as usize].next = k;
        if prev == NONE {
            self.nodes[node as usize].first = id;
        } else {
            self.nodes[prev as usize].next = id;
        }
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy generator over a prefix source: a list of "one more?" coins, each element a
    /// choice in 0..=2; rejected when an element is 2 right after a 1.
    fn run(prefix: &[u64]) -> (Vec<Branch>, Status) {
        let mut steps = Vec::new();
        let mut k = 0;
        let mut draw = |max: u64, steps: &mut Vec<Branch>| {
            let i = prefix.get(k).copied().unwrap_or(0).min(max);
            k += 1;
            steps.push(Branch {
                max,
                index: i,
                fixed: false,
            });
            i
        };
        let mut last = 0;
        for _ in 0..3 {
            if draw(1, &mut steps) == 0 {
                return (steps, Status::Valid);
            }
            let e = draw(2, &mut steps);
            if last == 1 && e == 2 {
                return (steps, Status::Invalid);
            }
            last = e;
        }
        (steps, Status::Valid)
    }

    fn enumerate(max_size: u64) -> Vec<Vec<u64>> {
        let mut tree = Tree::new(1 << 20);
        let mut seen = Vec::new();
        let mut n = 0;
        loop {
            match tree.next_tape() {
                Next::Tape(p) => {
                    let (steps, status) = run(&p);
                    let tape: Vec<u64> = steps.iter().map(|s| s.index).collect();
                    assert!(!seen.contains(&tape), "{tape:?} ran twice");
                    seen.push(tape);
                    tree.insert(&steps, status);
                    if !tree.has(&p) {
                        tree.skip();
                    }
                }
                Next::Done { cut } => {
                    if !cut || n == max_size {
                        return seen;
                    }
                    n += 1;
                    tree.restart(n);
                }
                Next::Full => panic!("full"),
            }
        }
    }

    #[test]
    fn every_tape_once_in_order_of_size() {
        let seen = enumerate(100);
        // Every distinct test case of the toy generator: lists of up to 3 elements over
        // 0..=2, cut at the first rejection.
        let sizes: Vec<u64> = seen.iter().map(|t| t.iter().sum()).collect();
        assert!(sizes.windows(2).all(|w| w[0] <= w[1]), "{sizes:?}");
        assert_eq!(seen[0], vec![0]);
        // Brute force: all tapes of the generator, deduplicated.
        let mut all = std::collections::HashSet::new();
        for a in 0..2u64 {
            for b in 0..3 {
                for c in 0..2 {
                    for d in 0..3 {
                        for e in 0..2 {
                            for f in 0..3 {
                                for g in 0..2 {
                                    let (steps, _) = run(&[a, b, c, d, e, f, g]);
                                    all.insert(steps.iter().map(|s| s.index).collect::<Vec<_>>());
                                }
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(seen.len(), all.len());
    }

    #[test]
    fn a_bound_stops_at_its_size() {
        let seen = enumerate(2);
        assert!(seen.iter().all(|t| t.iter().sum::<u64>() <= 2));
        // size 0: [0]; size 1: [1,0,0]; size 2: [1,0,1,0], [1,1,0], [1,2,...]? no: [1,2] is size 3.
        assert_eq!(
            seen,
            vec![vec![0], vec![1, 0, 0], vec![1, 0, 1, 0, 0], vec![1, 1, 0]]
        );
    }
}
