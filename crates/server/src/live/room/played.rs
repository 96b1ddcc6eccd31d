//! The moves a room keeps, compact: a game holds up to hundreds of them, and a `MoveInfo`'s
//! form as a JSON map takes about a kilobyte of memory (tree nodes, keys, boxed numbers)
//! where its text is some 60 bytes. They are kept as JSON text and read back when a message
//! needs one (the last move of a state, the moves a subscriber missed).
use pyramidion_core::Seat;
use pyramidion_games::{MoveInfo, PlayedMove};

/// One form of a move: its record text, and its structured form as JSON text.
struct Form {
    text: Box<str>,
    form: Box<str>,
}

impl Form {
    fn new(info: &MoveInfo) -> Form {
        Form {
            text: info.text.as_str().into(),
            form: info.form.to_string().into_boxed_str(),
        }
    }

    fn info(&self) -> MoveInfo {
        MoveInfo {
            text: self.text.to_string(),
            // It was written from a JSON value: it reads back.
            form: serde_json::from_str(&self.form).unwrap_or_default(),
        }
    }
}

pub struct Played {
    pub seat: Seat,
    full: Form,
    /// Per seat and then the spectators (last): the redacted form, where it differs; empty
    /// when it differs for nobody.
    redacted: Box<[Option<Form>]>,
    /// Whether its seat may take it back while its turn lasts (`PlayedMove::undoable`).
    pub undoable: bool,
}

impl Played {
    pub fn new(m: &PlayedMove) -> Played {
        let hidden = m.redacted.iter().any(Option::is_some);
        Played {
            seat: m.seat,
            undoable: m.undoable,
            full: Form::new(&m.full),
            redacted: if hidden {
                m.redacted
                    .iter()
                    .map(|r| r.as_ref().map(Form::new))
                    .collect()
            } else {
                Box::default()
            },
        }
    }

    /// The record text.
    pub fn text(&self) -> &str {
        &self.full.text
    }

    /// The move as `viewer` (`None`: a spectator) may see it; `over`: nothing is hidden any
    /// more (as `PlayedMove::seen_by`).
    pub fn seen_by(&self, viewer: Option<Seat>, over: bool) -> MoveInfo {
        if over || self.redacted.is_empty() {
            return self.full.info();
        }
        let index = viewer.map_or(self.redacted.len() - 1, |s| s.index());
        self.redacted
            .get(index)
            .and_then(Option::as_ref)
            .unwrap_or(&self.full)
            .info()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_move_reads_back_as_played() {
        let mut game = pyramidion_games::AnyGame::new(
            pyramidion_games::GameKind::ALL[0],
            &serde_json::json!({"players": 2}),
            7,
        )
        .unwrap();
        for _ in 0..30 {
            let Some(m) = game.legal_moves().first().cloned() else {
                break;
            };
            let played = game.play_text(&m.text).unwrap();
            let kept = Played::new(&played);
            assert_eq!(kept.text(), played.full.text);
            for viewer in [None, Some(Seat(0)), Some(Seat(1))] {
                for over in [false, true] {
                    assert_eq!(&kept.seen_by(viewer, over), played.seen_by(viewer, over));
                }
            }
        }
    }
}
