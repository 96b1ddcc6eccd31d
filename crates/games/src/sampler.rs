//! A full game rebuilt from one seat's view, for any registered game (`ViewSampler`): what
//! the page's previews and local analyses play on in a game the server runs, where the page
//! holds only that seat's view.
use crate::any::GameFactory;
use crate::{AnyGame, GameError, GameKind, dispatch};
use pyramidion_core::{GameRng, Rules, Seat, Seed, ViewSampler};
use serde_json::Value;

struct FromView<'a>(&'a Value, Seat, Seed);

impl GameFactory for FromView<'_> {
    fn make<G: Rules>(self) -> Result<G, GameError> {
        let mut rng = GameRng::from_seed(self.2);
        G::sample_from_view(self.0, self.1, &mut rng).map_err(|e| GameError::new(e.code, e.message))
    }
}

impl AnyGame {
    /// A game of `kind` whose view for `seat` is `view`, what the view hides drawn from
    /// `seed` (`no_sampler` for a game without one, `bad_view` for a view it cannot have
    /// given).
    pub fn from_view(
        kind: GameKind,
        view: &Value,
        seat: Seat,
        seed: Seed,
    ) -> Result<AnyGame, GameError> {
        Self::from_kind(kind, FromView(view, seat, seed))
    }
}

/// Whether `kind` rebuilds states from views (the page offers previews only where it does).
pub fn samples_views(kind: GameKind) -> bool {
    dispatch!(kind, G => <G as ViewSampler>::samples_views())
}

#[cfg(test)]
mod tests {
    use super::*;
    use pyramidion_core::ToMove;

    /// Every game that offers a sampler, over many deals and random positions, seen by every
    /// seat: each state it builds gives back exactly that view (the same JSON bytes), and
    /// offers the seat to move exactly the moves the true state does.
    #[test]
    fn a_sampled_state_gives_back_the_view_and_the_legal_moves() {
        let mut tested = 0;
        for &kind in GameKind::ALL {
            if !samples_views(kind) {
                continue;
            }
            tested += 1;
            let mut positions = 0;
            let d = kind.descriptor();
            for deal in 0..24u64 {
                let players = d.seats.min + (deal as u8 % (d.seats.max - d.seats.min + 1));
                // Every option the descriptor offers at this count, its values in turn.
                let mut options = serde_json::json!({ "players": players });
                for o in d.options.iter().filter(|o| o.applies_to(players)) {
                    let value = o.values[deal as usize / 3 % o.values.len()];
                    options[o.key] = value.into();
                }
                let mut game = AnyGame::new(kind, &options, deal).unwrap();
                let mut rng = GameRng::from_seed(deal ^ 0x5eed);
                let mut step = 0u64;
                loop {
                    for seat in (0..game.seats()).map(Seat) {
                        let view = game.view(Some(seat));
                        let text = game.view_json(Some(seat)).get().to_owned();
                        let sampled = AnyGame::from_view(kind, &view, seat, deal * 1000 + step)
                            .unwrap_or_else(|e| {
                                panic!("{kind} deal {deal} ply {}: {e}", game.ply())
                            });
                        assert_eq!(
                            sampled.view_json(Some(seat)).get(),
                            text,
                            "{kind} deal {deal} ply {} seat {seat:?}",
                            game.ply()
                        );
                        assert_eq!(sampled.to_move(), game.to_move(), "{kind}");
                        positions += 1;
                        if game.to_move() == ToMove::Seat(seat) {
                            assert_eq!(
                                sampled.legal_texts(),
                                game.legal_texts(),
                                "{kind} deal {deal} ply {}",
                                game.ply()
                            );
                        }
                    }
                    let legal = game.legal_texts();
                    if legal.is_empty() {
                        break;
                    }
                    let m = &legal[rng.below(legal.len() as u32) as usize];
                    game.play_text(m).unwrap();
                    step += 1;
                }
            }
            // Seats × positions checked (`--nocapture` shows it).
            eprintln!("{kind}: {positions} views rebuilt");
        }
        assert!(tested > 0, "no game offers a sampler");
    }

    #[test]
    fn a_view_no_game_gives_is_refused_with_a_code() {
        for &kind in GameKind::ALL {
            let bad = AnyGame::from_view(kind, &serde_json::json!({ "board": 3 }), Seat(0), 1);
            let code = bad.unwrap_err().code;
            let expected = if samples_views(kind) {
                "bad_view"
            } else {
                "no_sampler"
            };
            assert_eq!(code, expected, "{kind}");
        }
    }
}
