//! Interactive tutorials (issue 48): a game may teach itself in lessons of a few steps, each
//! a real position of the game (options, seed and a record prefix replayed through the
//! rules, never a hand-made state), the move to find there, and how a wrong move is answered:
//! with the game's own error code when it is illegal, or with the points it misses, computed
//! by the game's engine ([`Gain`]), when it is legal but worse. Texts are keys the clients
//! translate (`tutorial.<game>.<lesson>.<step>` and its `.hint`); no number is typed into
//! them. A game offers a tutorial through [`Tutorials`], whose default is "no tutorial", and
//! the registry reaches it by the game's key, so the shell names no game.
use crate::rules::{ErrorCode, Rules};
use crate::{Seat, Seed, ToMove};
use serde::Serialize;

/// A game's tutorial: its lessons, in the order a newcomer takes them, and the real game
/// the last lesson seats the learner at.
pub struct Tutorial<G: Rules> {
    pub lessons: Vec<Lesson<G>>,
    /// The options of the game against an easy bot that ends the tutorial (the learner's
    /// first real table), played through the platform's ordinary table creation.
    pub final_table: G::Options,
    /// Whether that table is a solo game (no bot seat: the game's own automa plays).
    pub final_solo: bool,
}

/// One rule taught in a few steps (its title is `tutorial.<game>.<key>`).
pub struct Lesson<G: Rules> {
    pub key: &'static str,
    pub steps: Vec<Step<G>>,
}

/// One position and the move to find there.
pub struct Step<G: Rules> {
    /// Names the step's texts: `tutorial.<game>.<lesson>.<key>` and `….<key>.hint`.
    pub key: &'static str,
    pub options: G::Options,
    pub seed: Seed,
    /// The moves played from the deal to the position, in the game's notation.
    pub prefix: Vec<&'static str>,
    /// The seat the learner plays (the seat to move at the position).
    pub seat: Seat,
    /// The moves that solve the step, in the game's notation.
    pub accepted: Vec<&'static str>,
    /// Wrong moves the step answers (illegal, or legal and worse): shown to the tests, which
    /// check that each is answered with a code or a computed figure.
    pub wrong: Vec<&'static str>,
    /// How a legal move is valued here, when the step's point is a number of points.
    pub gain: Option<Gain<G>>,
}

/// The engine's measure of a move at a step: `measure(after, seat)` reads the state after
/// the move (e.g. the points its pyramid would score now, or the result under best play).
/// Its texts are `tutorial.<game>.gain.<key>`, with `{best}`, `{got}` and `{missed}`.
pub struct Gain<G> {
    pub key: &'static str,
    pub measure: fn(&G, Seat) -> i32,
}

impl<G> Clone for Gain<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G> Copy for Gain<G> {}

/// What a tried move earns at a step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    /// One of the accepted moves; `value` is its measure when the step has one.
    Solved { value: Option<i32> },
    /// Not a legal move here: the game's error code (translated as `error.<code>` or the
    /// game's `rules.<code>`), as at a real table.
    Illegal { code: &'static str },
    /// Legal but worse: the step's measure of the best move and of this one, computed.
    Worse {
        gain: &'static str,
        best: i32,
        got: i32,
        missed: i32,
    },
    /// Legal, as good by the step's measure (or the step has none), but not the rule this
    /// step teaches.
    Other,
}

/// Why a step's position cannot be built (a tutorial that does not replay: the tests
/// catch it; the server answers it as an internal error).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("step {step}: {message} [{code}]")]
pub struct StepError {
    pub step: &'static str,
    pub code: &'static str,
    pub message: String,
}

impl ErrorCode for StepError {
    fn code(&self) -> &'static str {
        self.code
    }
}

impl<G: Rules> Step<G> {
    /// The step's position: the deal of its options and seed, then its prefix, every move
    /// checked by the rules.
    pub fn position(&self) -> Result<G, StepError> {
        let fail = |code: &'static str, message: String| StepError {
            step: self.key,
            code,
            message,
        };
        let mut game = G::new(&self.options, self.seed).map_err(|e| fail(e.code, e.message))?;
        for text in &self.prefix {
            let m: G::Move = text
                .parse()
                .map_err(|e: crate::rules::MoveParseError| fail(e.code(), e.to_string()))?;
            game.play(&m)
                .map_err(|e| fail(e.code(), format!("{text}: {e}")))?;
        }
        if game.to_move() != ToMove::Seat(self.seat) {
            return Err(fail(
                "wrong_seat",
                format!("{:?} is to move, not the learner", game.to_move()),
            ));
        }
        Ok(game)
    }

    /// The accepted moves, parsed (a text that does not parse is a tutorial's bug: the
    /// tests read every one).
    pub fn accepted_moves(&self) -> Vec<G::Move> {
        self.accepted
            .iter()
            .filter_map(|t| t.parse().ok())
            .collect()
    }

    /// The accepted moves in the engine's canonical notation (what the learner is shown
    /// once the step is solved).
    pub fn accepted_texts(&self) -> Vec<String> {
        self.accepted_moves()
            .iter()
            .map(|m| m.to_string())
            .collect()
    }

    /// The step's measure of the legal move `m` at `position`.
    fn value(&self, gain: &Gain<G>, position: &G, m: &G::Move) -> i32 {
        let mut after = position.clone();
        after.play_unchecked(m);
        (gain.measure)(&after, self.seat)
    }

    /// The best value of the step's measure over its accepted moves.
    pub fn best_value(&self, position: &G) -> Option<i32> {
        let gain = self.gain?;
        self.accepted_moves()
            .iter()
            .filter(|m| position.is_legal(m))
            .map(|m| self.value(&gain, position, m))
            .max()
    }

    /// Judges `text` tried at `position` (this step's, from [`Step::position`]).
    pub fn judge(&self, position: &G, text: &str) -> Verdict {
        let m: G::Move = match text.parse() {
            Ok(m) => m,
            Err(e) => {
                let e: crate::rules::MoveParseError = e;
                return Verdict::Illegal { code: e.code() };
            }
        };
        if let Err(e) = position.check(&m) {
            return Verdict::Illegal { code: e.code() };
        }
        let value = self.gain.map(|g| self.value(&g, position, &m));
        if self.accepted_moves().contains(&m) {
            return Verdict::Solved { value };
        }
        match (self.gain, value, self.best_value(position)) {
            (Some(gain), Some(got), Some(best)) if got < best => Verdict::Worse {
                gain: gain.key,
                best,
                got,
                missed: best - got,
            },
            _ => Verdict::Other,
        }
    }
}

/// A game's optional tutorial (every game implements the trait, if only as `impl Tutorials
/// for Game {}`; [`Rules`] requires it).
pub trait Tutorials {
    /// The game's tutorial; `None` (the default) when it has none.
    fn tutorial() -> Option<Tutorial<Self>>
    where
        Self: Rules,
    {
        None
    }
}

/// Checks a tutorial the way every game's tests do: each step replays to its seat, its
/// accepted moves parse and are legal, and each of its wrong moves is answered with a code
/// or a computed shortfall; a step with a measure accepts exactly the legal moves that reach
/// its best value. Returns every problem found, each naming its step.
pub fn check<G: Rules>(tutorial: &Tutorial<G>) -> Vec<String> {
    let mut problems = Vec::new();
    let mut keys = std::collections::HashSet::new();
    if tutorial.lessons.is_empty() {
        problems.push("a tutorial without lessons".to_string());
    }
    for lesson in &tutorial.lessons {
        if !keys.insert(lesson.key) {
            problems.push(format!("lesson {} twice", lesson.key));
        }
        if lesson.steps.is_empty() {
            problems.push(format!("lesson {} has no step", lesson.key));
        }
        let mut step_keys = std::collections::HashSet::new();
        for step in &lesson.steps {
            let at = format!("{}/{}", lesson.key, step.key);
            if !step_keys.insert(step.key) {
                problems.push(format!("{at}: step key twice"));
            }
            problems.extend(check_step(step).into_iter().map(|p| format!("{at}: {p}")));
        }
    }
    if let Err(e) = G::new(&tutorial.final_table, 0) {
        problems.push(format!("the final table's options: {e}"));
    }
    problems
}

fn check_step<G: Rules>(step: &Step<G>) -> Vec<String> {
    let mut problems = Vec::new();
    let position = match step.position() {
        Ok(p) => p,
        Err(e) => return vec![e.to_string()],
    };
    if step.accepted.is_empty() {
        problems.push("no accepted move".to_string());
    }
    for text in &step.accepted {
        match text.parse::<G::Move>() {
            Err(e) => problems.push(format!("accepted {text}: {e}")),
            Ok(m) if !position.is_legal(&m) => problems.push(format!("accepted {text}: illegal")),
            Ok(m) if !matches!(step.judge(&position, text), Verdict::Solved { .. }) => {
                problems.push(format!("accepted {m} is not judged solved"))
            }
            Ok(_) => {}
        }
    }
    if step.wrong.is_empty() {
        problems.push("no wrong move to answer".to_string());
    }
    for text in &step.wrong {
        match step.judge(&position, text) {
            Verdict::Illegal { .. } => {}
            Verdict::Worse { missed, .. } if missed > 0 => {}
            v => problems.push(format!("wrong {text} is answered {v:?}")),
        }
    }
    if let (Some(gain), Some(best)) = (step.gain, step.best_value(&position)) {
        let mut legal = Vec::new();
        position.legal_moves(&mut legal);
        let mut best_moves: Vec<String> = legal
            .iter()
            .filter(|m| step.value(&gain, &position, m) >= best)
            .map(|m| m.to_string())
            .collect();
        let mut accepted = step.accepted_texts();
        best_moves.sort();
        accepted.sort();
        if best_moves != accepted {
            problems.push(format!(
                "accepts {accepted:?} but the moves reaching the best {} ({best}) are {best_moves:?}",
                gain.key
            ));
        }
    }
    problems
}
