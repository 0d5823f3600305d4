//! `undo_buffer`: an undoable text buffer (insert, delete, undo, redo) against a model that
//! keeps whole snapshots. The buffer under test keeps inverse edits instead, where its bugs
//! live.

use super::Trace;
use tapefuzz::generators::Boxed;
use tapefuzz::prelude::*;
use tapefuzz::property::Test;
use tapefuzz::stateful::{StateMachine, stateful};

/// The planted bugs.
pub const BUGS: &[(&str, &str)] = &[
    (
        "stale_redo",
        "a new edit after an undo keeps the redo history",
    ),
    (
        "undo_delete_shifted",
        "undoing the deletion of the last character puts it back one place to the left",
    ),
];

/// Each bug's minimal trace, and why nothing shorter fails.
pub const MINIMAL: &[Trace] = &[
    Trace {
        bug: "stale_redo",
        steps: "1. Insert(0, 'a')\n2. Undo\n3. Insert(0, 'a')\n4. Redo",
        also: &[],
        why: "a redo must find a stale entry: an edit, its undo, a second edit, then the redo",
    },
    Trace {
        bug: "undo_delete_shifted",
        steps: "1. Insert(0, 'a')\n2. Insert(0, 'b')\n3. Delete(1)\n4. Undo",
        also: &[],
        why: "the shift shows only with two different characters before the deletion of the \
              last one, and its undo",
    },
];

/// An edit or a history move. Positions are indices into the text (an insert's at most its
/// length, a delete's less).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// Insert a character at a position.
    Insert(usize, char),
    /// Delete the character at a position.
    Delete(usize),
    /// Undo the last edit not undone.
    Undo,
    /// Redo the last undone edit.
    Redo,
}

/// An edit, as the buffer under test remembers it (to invert it).
#[derive(Clone, Copy, Debug)]
enum Edit {
    Inserted(usize, char),
    Deleted(usize, char),
}

/// The buffer under test.
#[derive(Debug, Default)]
pub struct Buffer {
    text: Vec<char>,
    undo: Vec<Edit>,
    redo: Vec<Edit>,
    bug: Option<&'static str>,
}

impl Buffer {
    /// An empty buffer with `bug` planted.
    pub fn new(bug: Option<&'static str>) -> Buffer {
        Buffer {
            bug,
            ..Buffer::default()
        }
    }

    /// The text.
    pub fn text(&self) -> String {
        self.text.iter().collect()
    }

    fn apply(&mut self, e: Edit) {
        match e {
            Edit::Inserted(i, c) => self.text.insert(i, c),
            Edit::Deleted(i, _) => {
                self.text.remove(i);
            }
        }
    }

    fn invert(&mut self, e: Edit) {
        match e {
            Edit::Inserted(i, _) => {
                self.text.remove(i);
            }
            Edit::Deleted(i, c) => {
                let shifted =
                    self.bug == Some("undo_delete_shifted") && i > 0 && i == self.text.len();
                self.text.insert(if shifted { i - 1 } else { i }, c);
            }
        }
    }

    fn edit(&mut self, e: Edit) {
        self.apply(e);
        self.undo.push(e);
        if self.bug != Some("stale_redo") {
            self.redo.clear();
        }
    }

    /// Inserts `c` at `i` (clamped to the end).
    pub fn insert(&mut self, i: usize, c: char) {
        let i = i.min(self.text.len());
        self.edit(Edit::Inserted(i, c));
    }

    /// Deletes the character at `i`; nothing when out of range.
    pub fn delete(&mut self, i: usize) {
        if let Some(&c) = self.text.get(i) {
            self.edit(Edit::Deleted(i, c));
        }
    }

    /// Undoes the last edit; nothing when there is none.
    pub fn undo(&mut self) {
        if let Some(e) = self.undo.pop() {
            self.invert(e);
            self.redo.push(e);
        }
    }

    /// Redoes the last undone edit; nothing when there is none.
    pub fn redo(&mut self) {
        if let Some(e) = self.redo.pop() {
            // A stale entry may not fit the text any more.
            let fits = match e {
                Edit::Inserted(i, _) => i <= self.text.len(),
                Edit::Deleted(i, _) => i < self.text.len(),
            };
            if fits {
                self.apply(e);
                self.undo.push(e);
            }
        }
    }
}

/// The model: the text, the texts before each edit not undone, the texts undone.
#[derive(Clone, Debug, Default)]
pub struct Model {
    text: String,
    past: Vec<String>,
    future: Vec<String>,
}

impl Model {
    /// The text the buffer should hold.
    pub fn text(&self) -> &str {
        &self.text
    }
}

/// The model and the actions.
pub struct Machine {
    /// The planted bug.
    pub bug: Option<&'static str>,
}

impl StateMachine for Machine {
    type State = Model;
    type Sut = Buffer;
    type Action = Op;

    fn initial(&self) -> Model {
        Model::default()
    }
    fn reset(&self) -> Buffer {
        Buffer::new(self.bug)
    }
    fn actions(&self, s: &Model) -> Boxed<Op> {
        let len = s.text.chars().count();
        // Every action draws the same three choices (which action, a position, a character),
        // used or not: an action's choices stay where they are on the tape when shrinking
        // lowers which action it is (a delete becoming an insert keeps its position), and
        // the same four actions are there in every state. An insert's position past the end
        // inserts at the end; a delete's counts from the end (0: the last character), and
        // one past the start is left out by its precondition. (A position taken modulo the
        // length would move when shrinking deletes an earlier action; counted from the end,
        // "delete the last character" stays so.)
        (
            ints::<u8>(0..=3),
            ints::<usize>(0..=15),
            chars(CharClass::lowercase()),
        )
            .map(move |(which, i, c)| match which {
                0 => Op::Insert(i.min(len), c),
                1 => Op::Delete(len.wrapping_sub(1).wrapping_sub(i)),
                2 => Op::Undo,
                _ => Op::Redo,
            })
            .boxed()
    }
    fn precondition(&self, s: &Model, op: &Op) -> bool {
        match *op {
            Op::Insert(i, _) => i <= s.text.chars().count(),
            Op::Delete(i) => i < s.text.chars().count(),
            Op::Undo | Op::Redo => true,
        }
    }
    fn next_state(&self, s: &mut Model, op: &Op) {
        let mut chars: Vec<char> = s.text.chars().collect();
        match *op {
            Op::Insert(i, c) => {
                s.past.push(s.text.clone());
                s.future.clear();
                chars.insert(i, c);
                s.text = chars.into_iter().collect();
            }
            Op::Delete(i) => {
                s.past.push(s.text.clone());
                s.future.clear();
                chars.remove(i);
                s.text = chars.into_iter().collect();
            }
            Op::Undo => {
                if let Some(t) = s.past.pop() {
                    s.future.push(std::mem::replace(&mut s.text, t));
                }
            }
            Op::Redo => {
                if let Some(t) = s.future.pop() {
                    s.past.push(std::mem::replace(&mut s.text, t));
                }
            }
        }
    }
    fn run(&self, sut: &mut Buffer, _: &Model, op: &Op) -> Result<(), Fail> {
        match *op {
            Op::Insert(i, c) => sut.insert(i, c),
            Op::Delete(i) => sut.delete(i),
            Op::Undo => sut.undo(),
            Op::Redo => sut.redo(),
        }
        Ok(())
    }
    fn check(&self, sut: &Buffer, s: &Model) -> Result<(), Fail> {
        ensure_eq!(sut.text(), s.text);
        Ok(())
    }
}

/// The target's test: sequences of up to 40 actions (20 on average).
pub fn test(bug: Option<&str>) -> Box<dyn Test> {
    let bug = super::known(BUGS, bug);
    Box::new(stateful(Machine { bug }, super::steps()))
}
