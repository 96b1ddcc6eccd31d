//! A puzzle's themes in the rulebook's words (`Notation::themes`): the part of the round the
//! decision is (the move's kind), and what a card does to the builder's own edifices, read
//! from the builder's hand and necropolis (its own Tomb included, which it sees), never from
//! another's Tomb.
use crate::data::{CardId, card};
use crate::moves::Move;
use crate::necropolis::Necropolis;
use crate::state::Game;

impl Game {
    pub(crate) fn themes_of(&self, m: &Move) -> Vec<&'static str> {
        let mut out = vec![match m {
            Move::God(_) => "god",
            Move::Pair(_) => "quarry_pair",
            Move::Pyramid(..) => "pyramid_card",
            Move::Obelisk(_) => "obelisk",
            Move::Tomb(_) => "tomb",
            Move::Done => "round_end",
            Move::Discard(_) => "card_discard",
        }];
        let Some((seat, ..)) = self.builder() else {
            return out;
        };
        let hand = self.hand(seat);
        let own = self.necropolis(seat);
        let held = |h: u8| hand.get(h as usize).copied();
        match *m {
            Move::Pyramid(h, place) => {
                if let Some(id) = held(h) {
                    out.extend(pyramid_themes(own, id, place));
                }
            }
            Move::Obelisk(h) => {
                if let Some(id) = held(h) {
                    let mut after = own.obelisk;
                    after.push(id);
                    // The colour on the most cards scores alone: this card adds a stage to it.
                    if after.score() > own.obelisk.score() {
                        out.push("obelisk_lead");
                    }
                }
            }
            Move::Tomb(h) => {
                if let Some(id) = held(h) {
                    // Majorities are won colour by colour against Tombs the builder cannot see:
                    // stones on the colour its own Tomb already holds most of build one.
                    let stones = own.tomb.stones();
                    let most = stones.iter().copied().max().unwrap_or(0);
                    let counts = card(id).stone_counts;
                    if most > 0 && (0..5).any(|c| stones[c] == most && counts[c] > 0) {
                        out.push("tomb_majority");
                    }
                }
            }
            _ => {}
        }
        out
    }
}

/// What putting `id` at `place` does to the builder's Pyramid score: a longer longest group
/// (scored twice), or the +10 bonus for every colour reaching 3.
fn pyramid_themes(
    own: &Necropolis,
    id: CardId,
    place: crate::necropolis::Place,
) -> Vec<&'static str> {
    let mut after = own.pyramid;
    if after.place(id, place).is_err() {
        return Vec::new();
    }
    let (was, now) = (own.pyramid.score(), after.score());
    let mut out = Vec::new();
    if now.longest > was.longest {
        out.push("longest_group");
    }
    if now.bonus > was.bonus {
        out.push("pyramid_bonus");
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::data::{Colour, cards};
    use crate::moves::Move;
    use crate::options::Options;
    use crate::state::{Game, Phase};
    use pyramidion_core::{BotHooks, GameRng, Notation, Rules, Seat, ToMove};

    /// Seat to build, with `hand` in hand, in the phase where optional cards are built.
    fn building(hand: &[u8]) -> (Game, Seat) {
        let mut g = Game::new(&Options::default(), 5).unwrap();
        g.phase = Phase::BuildMore;
        // Seat 0 builds first this round.
        g.order[g.turn as usize] = 0;
        let (seat, ..) = g.builder().unwrap();
        g.hands[seat.index()].clear();
        for &id in hand {
            g.hands[seat.index()].push(id);
        }
        (g, seat)
    }

    #[test]
    fn a_card_sharing_a_colour_with_the_obelisk_is_obelisk_lead() {
        let base = &cards()[0];
        let shares = cards()
            .iter()
            .find(|c| c.id != base.id && c.presence & base.presence != 0)
            .unwrap()
            .id;
        let apart = cards()
            .iter()
            .find(|c| c.presence & base.presence == 0)
            .unwrap()
            .id;
        let base = base.id;
        let (mut g, seat) = building(&[shares, apart]);
        g.necropolis[seat.index()].obelisk.push(base);
        assert_eq!(g.themes(&Move::Obelisk(0)), vec!["obelisk", "obelisk_lead"]);
        assert_eq!(g.themes(&Move::Obelisk(1)), vec!["obelisk"]);
    }

    #[test]
    fn stones_on_the_tombs_strongest_colour_are_tomb_majority() {
        // Every card's stones are of different colours: two red cards otherwise apart make
        // red the Tomb's strongest colour, alone.
        let reds: Vec<&crate::data::Card> = cards()
            .iter()
            .filter(|c| c.stone_count(Colour::Red) > 0)
            .collect();
        let first = reds[0];
        let second = reds
            .iter()
            .find(|c| c.presence & first.presence == 1 << Colour::Red.index())
            .unwrap();
        let more_red = reds
            .iter()
            .find(|c| c.id != first.id && c.id != second.id)
            .unwrap()
            .id;
        let no_red = cards()
            .iter()
            .find(|c| c.stone_count(Colour::Red) == 0)
            .unwrap()
            .id;
        let (mut g, seat) = building(&[more_red, no_red]);
        // An empty Tomb has no majority to build.
        assert_eq!(g.themes(&Move::Tomb(0)), vec!["tomb"]);
        g.necropolis[seat.index()].tomb.push(first.id);
        g.necropolis[seat.index()].tomb.push(second.id);
        assert_eq!(g.themes(&Move::Tomb(0)), vec!["tomb", "tomb_majority"]);
        // A card without red spreads the Tomb over colours it leads in nowhere.
        assert_eq!(g.themes(&Move::Tomb(1)), vec!["tomb"]);
    }

    /// In seeded games between greedy bots, each Pyramid card themed `longest_group` or
    /// `pyramid_bonus` does what the rulebook's scoring (the game's own `score`) says, and
    /// both themes occur.
    #[test]
    fn pyramid_themes_are_the_scores_longest_group_and_bonus() {
        let mut seen = (0, 0);
        for seed in 0..40u64 {
            let mut g = Game::new(&Options::default(), seed).unwrap();
            let mut rng = GameRng::from_seed(seed);
            while let ToMove::Seat(seat) = g.to_move() {
                let mut moves = Vec::new();
                g.legal_moves(&mut moves);
                for m in moves.iter().filter(|m| matches!(m, Move::Pyramid(..))) {
                    let themes = g.themes(m);
                    let was = g.score(seat).pyramid;
                    let mut after = g.clone();
                    after.play(m).unwrap();
                    let now = after.score(seat).pyramid;
                    assert_eq!(themes.contains(&"longest_group"), now.longest > was.longest);
                    assert_eq!(themes.contains(&"pyramid_bonus"), now.bonus > was.bonus);
                    seen.0 += usize::from(themes.contains(&"longest_group"));
                    seen.1 += usize::from(themes.contains(&"pyramid_bonus"));
                }
                let m = g.greedy_move(&mut rng).unwrap_or(moves[0]);
                g.play(&m).unwrap();
            }
        }
        assert!(seen.0 > 0 && seen.1 > 0, "{seen:?}");
    }
}
