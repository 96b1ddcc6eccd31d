//! The turn flow and the checks of Pyramido: the [`Rules`] implementation.
use crate::data::{CARDS, COLOURS, DOMINO_COUNT, card_of, dominoes};
use crate::error::IllegalMove;
use crate::moves::{Move, MoveForm, Side};
use crate::options::Options;
use crate::scoring::{next_first_player, score_stage};
use crate::state::{Game, MAX_PLAYERS, PILE_CAPACITY, PILES, Phase, STAGE_BLOCKS, Status, Turn};
use crate::view::View;
use arrayvec::ArrayVec;
use pyramidion_core::descriptor::GameDescriptor;
use pyramidion_core::{
    BotHooks, GameRng, Notation, Outcome, Rules, Seat, Seed, SetupError, ToMove,
};
use pyramidion_pyramid::STAGES;
use pyramidion_pyramid::{Block, Pyramid, StageGrid};

impl Game {
    // ----- turn flow -------------------------------------------------------------------------

    fn new_block(&self, side: usize) -> Block {
        self.cur().pyramid.blocks()[self.turn.first_block as usize + side].block
    }

    /// Sides of the new domino that may take a marker (bit 0: A, bit 1: B).
    fn mark_options(&self) -> u8 {
        mark_options([self.new_block(0), self.new_block(1)], &self.cur().markers)
    }

    fn mark(&mut self, side: usize) {
        let index = self.turn.first_block + side as u8;
        let colour = self.new_block(side).colour;
        self.cur_mut().markers[colour as usize] = Some(index);
        self.turn.marked |= 1 << side;
    }

    fn place(&mut self, p: &pyramidion_pyramid::Placement) {
        let domino = self.turn.domino;
        let player = &mut self.players[self.current as usize];
        self.turn.first_block = player.pyramid.blocks().len() as u8;
        player.pyramid.place(p, dominoes()[domino as usize].blocks);
        player.dominoes.push(domino);
        player.last_domino = Some(self.turn.first_block);
        player.stage_blocks += 2;
        match self.mark_options() {
            0 => self.after_mark(),
            1 => {
                self.mark(0);
                self.after_mark();
            }
            2 => {
                self.mark(1);
                self.after_mark();
            }
            _ => self.phase = Phase::Mark,
        }
    }

    fn after_mark(&mut self) {
        if self.cur().cards.iter().any(Option::is_none) && self.turn.marked != 0b11 {
            self.phase = Phase::Resurface;
        } else {
            self.go_refill();
        }
    }

    fn resurface(&mut self, side: usize, colour: u8, quadrant: u8) {
        let index = self.turn.first_block + side as u8;
        let player = &mut self.players[self.current as usize];
        player.pyramid.replace_block(
            index as usize,
            Block {
                colour,
                icons: 1 << quadrant,
            },
        );
        player.cards[card_of(colour)] = Some(index);
        if player.markers[colour as usize].is_none() {
            player.markers[colour as usize] = Some(index);
            self.turn.marked |= 1 << side;
        }
        self.go_refill();
    }

    fn go_refill(&mut self) {
        let s = self.turn.slot as usize;
        match (self.piles[s].is_empty(), self.piles[s + 1].is_empty()) {
            (false, false) => self.phase = Phase::Refill,
            (false, true) => self.refill(s),
            (true, false) => self.refill(s + 1),
            (true, true) => self.end_turn(),
        }
    }

    fn refill(&mut self, pile: usize) {
        self.quarry[self.turn.slot as usize] = self.piles[pile].pop();
        if self.piles[pile].is_empty() {
            self.replenish(pile);
        }
        self.end_turn();
    }

    /// An empty pile receives the bottom half (rounded down) of the largest other pile
    /// (leftmost among equals).
    fn replenish(&mut self, empty: usize) {
        let mut source = None;
        for p in 0..PILES {
            if p != empty && source.is_none_or(|s: usize| self.piles[p].len() > self.piles[s].len())
            {
                source = Some(p);
            }
        }
        let source = source.expect("four piles");
        let half = self.piles[source].len() / 2;
        let bottom: ArrayVec<u8, PILE_CAPACITY> = self.piles[source].drain(..half).collect();
        self.piles[empty] = bottom;
    }

    fn end_turn(&mut self) {
        let cap = STAGE_BLOCKS[self.stage as usize];
        let player = &mut self.players[self.current as usize];
        if player.stage_blocks == cap {
            player.status = Status::Done;
            return self.advance();
        }
        if player.pyramid.has_slot() {
            return self.advance();
        }
        // No domino fits any more: the holes must be covered with resurfacing cards.
        let mut holes = [(0, 0); CARDS];
        let mut count = 0;
        for_each_hole(&player.pyramid, |x, y| {
            if count < CARDS {
                holes[count] = (x, y);
            }
            count += 1;
        });
        debug_assert!(count > 0 && count == (cap - player.stage_blocks) as usize);
        if count > player.unused_cards() as usize {
            player.status = Status::Eliminated;
            if self.players.iter().filter(|p| p.alive()).count() <= 1 {
                self.phase = Phase::Over;
            } else {
                self.advance();
            }
            return;
        }
        self.turn.holes = holes;
        self.turn.hole_count = count as u8;
        self.turn.hole_next = 0;
        self.phase = Phase::Cover;
    }

    fn cover(&mut self, x: u8, y: u8, colour: u8, quadrant: u8) {
        let player = &mut self.players[self.current as usize];
        let index = player.pyramid.blocks().len() as u8;
        player.pyramid.place_block(
            x,
            y,
            Block {
                colour,
                icons: 1 << quadrant,
            },
        );
        player.cards[card_of(colour)] = Some(index);
        player.stage_blocks += 1;
        self.turn.hole_next += 1;
        if self.turn.hole_next == self.turn.hole_count {
            player.status = Status::Done;
            self.advance();
        }
    }

    /// Next seat clockwise still building; the stage ends when there is none.
    fn advance(&mut self) {
        let n = self.seats;
        for k in 1..=n {
            let seat = (self.current + k) % n;
            if self.players[seat as usize].status == Status::Building {
                self.current = seat;
                self.phase = Phase::Take;
                self.turn = Turn::default();
                return;
            }
        }
        self.end_stage();
    }

    fn end_stage(&mut self) {
        let mut stage_scores = [None; MAX_PLAYERS];
        for (seat, player) in self.players.iter_mut().enumerate() {
            if player.alive() {
                let score = score_stage(&player.pyramid, &player.markers);
                player.total += score.total;
                stage_scores[seat] = Some(score.total);
                player.scores.push(score);
            }
        }
        if self.stage as usize == STAGE_BLOCKS.len() - 1 {
            self.phase = Phase::Over;
            return;
        }
        self.first = next_first_player(self.first, &stage_scores[..self.seats as usize])
            .expect("a seat is alive");
        self.stage += 1;
        for player in self.players.iter_mut().filter(|p| p.alive()) {
            player.markers = [None; COLOURS];
            player.pyramid.next_stage();
            player.stage_blocks = 0;
            player.status = Status::Building;
        }
        self.current = self.first;
        self.phase = Phase::Take;
        self.turn = Turn::default();
    }

    // ----- checks ----------------------------------------------------------------------------

    fn check(&self, m: &Move) -> Result<(), IllegalMove> {
        let wrong = IllegalMove::WrongStep {
            expected: self.phase.expected(),
        };
        let card_side = |colour: u8, quadrant: u8| {
            if colour as usize >= COLOURS {
                Err(IllegalMove::UnknownColour(colour))
            } else if quadrant >= 4 {
                Err(IllegalMove::BadQuadrant(quadrant))
            } else if self.cur().cards[card_of(colour)].is_some() {
                Err(IllegalMove::CardUsed(colour))
            } else {
                Ok(())
            }
        };
        match (self.phase, *m) {
            (Phase::Over, _) => Err(IllegalMove::GameOver),
            (Phase::Take, Move::Take(slot)) => match self.quarry.get(slot as usize) {
                None => Err(IllegalMove::NoSuchSlot(slot)),
                Some(None) => Err(IllegalMove::EmptySlot(slot)),
                Some(Some(_)) => Ok(()),
            },
            (Phase::Place, Move::Place(p)) => {
                self.cur().pyramid.check(&p).map_err(IllegalMove::Placement)
            }
            // The mark step is only asked when both blocks may take a marker.
            (Phase::Mark, Move::Mark(_)) => Ok(()),
            (Phase::Resurface, Move::Pass) => Ok(()),
            (
                Phase::Resurface,
                Move::Resurface {
                    side,
                    colour,
                    quadrant,
                },
            ) => {
                if self.turn.marked >> side.index() & 1 == 1 {
                    return Err(IllegalMove::BlockMarked(side));
                }
                card_side(colour, quadrant)
            }
            (Phase::Refill, Move::Refill(pile)) => {
                let slot = self.turn.slot;
                if pile as usize >= PILES {
                    Err(IllegalMove::NoSuchPile(pile))
                } else if pile != slot && pile != slot + 1 {
                    Err(IllegalMove::PileNotAdjacent(pile))
                } else if self.piles[pile as usize].is_empty() {
                    Err(IllegalMove::EmptyPile(pile))
                } else {
                    Ok(())
                }
            }
            (
                Phase::Cover,
                Move::Cover {
                    x,
                    y,
                    colour,
                    quadrant,
                },
            ) => {
                let expected = self.turn.holes[self.turn.hole_next as usize];
                if (x, y) != expected {
                    return Err(IllegalMove::WrongHole { expected });
                }
                card_side(colour, quadrant)
            }
            _ => Err(wrong),
        }
    }
}

/// Blocks of a new domino (A, B as placed) that may take a jewel marker: a block with a jewel
/// whose colour's marker is still unplaced (bit 0: A, bit 1: B). One marker goes on the domino;
/// with two options the player chooses.
pub fn mark_options(new: [Block; 2], markers: &[Option<u8>; COLOURS]) -> u8 {
    let mut options = 0;
    for (side, b) in new.iter().enumerate() {
        if b.icons != 0 && markers[b.colour as usize].is_none() {
            options |= 1 << side;
        }
    }
    options
}

/// Calls `f(x, y)` for every free cell of the current stage (stage-local coordinates,
/// row-major). Stage 1 uses the forced frame on the canvas.
pub(crate) fn for_each_hole(pyramid: &Pyramid, mut f: impl FnMut(u8, u8)) {
    let stage = pyramid.stage();
    let frame = if stage == 0 {
        pyramid.canvas().frame()
    } else {
        pyramid.frame()
    };
    let Some(frame) = frame else {
        return;
    };
    let (x0, y0, w, h) = if stage == 0 {
        (frame.x, frame.y, frame.width(), frame.height())
    } else {
        let g = StageGrid::new(frame, stage);
        (0, 0, g.width, g.height)
    };
    let mut occupied = 0u128;
    for b in pyramid.blocks().iter().filter(|b| b.stage == stage) {
        occupied |= 1 << (b.y as u32 * 9 + b.x as u32);
    }
    for y in y0..y0 + h {
        for x in x0..x0 + w {
            if occupied >> (y as u32 * 9 + x as u32) & 1 == 0 {
                f(x, y);
            }
        }
    }
}

impl Notation for Game {
    type Form = MoveForm;

    fn form(&self, m: &Move) -> MoveForm {
        MoveForm::of(self, m)
    }

    /// The rulebook's part of a turn the decision belongs to (which domino to take, where to
    /// place it, which jewel to mark, resurfacing or not, which pile refills the quarry,
    /// covering a hole of a stuck stage), and for a placement what it does to the areas
    /// (`themes.rs`).
    fn themes(&self, m: &Move) -> Vec<&'static str> {
        self.themes_of(m)
    }
}

impl BotHooks for Game {
    fn greedy_move(&self, rng: &mut GameRng) -> Option<Move> {
        crate::heuristic::greedy_move(self, rng)
    }

    fn favourite_move(&self, candidates: &[Move], rng: &mut GameRng) -> Option<Move> {
        crate::heuristic::favourite(self, candidates, rng)
    }

    fn playout_horizon(&self, root: &Game, stages: u8) -> Option<Outcome> {
        crate::heuristic::horizon(root, self, stages)
    }
}

impl Rules for Game {
    type Options = Options;
    type Move = Move;
    type View = View;
    type Error = IllegalMove;

    const DESCRIPTOR: &'static GameDescriptor = &crate::descriptor::DESCRIPTOR;

    fn new(options: &Options, seed: Seed) -> Result<Self, SetupError> {
        let mut rng = GameRng::from_seed(seed);
        let mut deck: [u8; DOMINO_COUNT] = std::array::from_fn(|i| i as u8);
        rng.shuffle(&mut deck);
        Game::from_deck(options, &deck)
    }

    fn options(&self) -> &Options {
        &self.options
    }

    fn seats(&self) -> u8 {
        self.seats
    }

    fn to_move(&self) -> ToMove {
        if self.phase == Phase::Over {
            ToMove::Over
        } else {
            ToMove::Seat(Seat(self.current))
        }
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        match self.phase {
            Phase::Take => {
                for (slot, d) in self.quarry.iter().enumerate() {
                    if d.is_some() {
                        out.push(Move::Take(slot as u8));
                    }
                }
            }
            Phase::Place => self.cur().pyramid.legal(|p| out.push(Move::Place(p))),
            Phase::Mark => out.extend([Move::Mark(Side::A), Move::Mark(Side::B)]),
            Phase::Resurface => {
                out.push(Move::Pass);
                let cards = &self.cur().cards;
                for side in Side::BOTH {
                    if self.turn.marked >> side.index() & 1 == 1 {
                        continue;
                    }
                    for colour in 0..COLOURS as u8 {
                        if cards[card_of(colour)].is_some() {
                            continue;
                        }
                        for quadrant in 0..4 {
                            out.push(Move::Resurface {
                                side,
                                colour,
                                quadrant,
                            });
                        }
                    }
                }
            }
            Phase::Refill => {
                let s = self.turn.slot;
                for pile in [s, s + 1] {
                    if !self.piles[pile as usize].is_empty() {
                        out.push(Move::Refill(pile));
                    }
                }
            }
            Phase::Cover => {
                let (x, y) = self.turn.holes[self.turn.hole_next as usize];
                let cards = &self.cur().cards;
                for colour in 0..COLOURS as u8 {
                    if cards[card_of(colour)].is_some() {
                        continue;
                    }
                    for quadrant in 0..4 {
                        out.push(Move::Cover {
                            x,
                            y,
                            colour,
                            quadrant,
                        });
                    }
                }
            }
            Phase::Over => {}
        }
    }

    fn check(&self, m: &Move) -> Result<(), IllegalMove> {
        Game::check(self, m)
    }

    fn undoable(&self, m: &Move) -> bool {
        crate::undo::undoable(self, m)
    }

    fn play_unchecked(&mut self, m: &Move) {
        self.ply += 1;
        match *m {
            Move::Take(slot) => {
                self.turn.slot = slot;
                self.turn.domino = self.quarry[slot as usize]
                    .take()
                    .expect("a domino in the slot");
                self.phase = Phase::Place;
            }
            Move::Place(p) => self.place(&p),
            Move::Mark(side) => {
                self.mark(side.index());
                self.after_mark();
            }
            Move::Pass => self.go_refill(),
            Move::Resurface {
                side,
                colour,
                quadrant,
            } => self.resurface(side.index(), colour, quadrant),
            Move::Refill(pile) => self.refill(pile as usize),
            Move::Cover {
                x,
                y,
                colour,
                quadrant,
            } => self.cover(x, y, colour, quadrant),
        }
    }

    fn view(&self, seat: Option<Seat>) -> View {
        View::new(self, seat)
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.phase == Phase::Over).then(|| self.standings())
    }
    fn determinize(&self, _seat: Seat, rng: &mut GameRng) -> Self {
        self.determinized(rng)
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn stage_number(&self) -> u8 {
        // Once the game is over the stage index has moved past the last stage.
        self.stage.min(STAGES - 1) + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoring::StageScore;
    use pyramidion_core::ErrorCode;
    fn over_with(keys: &[(u16, [bool; 3], u16, Status)]) -> Game {
        let mut g = Game::new(&Options::players(keys.len() as u8), 1).unwrap();
        g.phase = Phase::Over;
        for (p, &(total, cards, best, status)) in g.players.iter_mut().zip(keys) {
            p.total = total;
            p.status = status;
            for (k, used) in cards.iter().enumerate() {
                p.cards[k] = used.then_some(0);
            }
            p.scores.push(StageScore {
                total: best,
                ..StageScore::default()
            });
        }
        g
    }

    #[test]
    fn ties_break_on_unused_cards_then_best_stage_then_share() {
        use Status::*;
        let (u, f) = (true, false);
        let g = over_with(&[
            (80, [u, u, f], 30, Done),
            (80, [u, f, f], 25, Done),
            (80, [f, u, f], 25, Done),
            (70, [f, f, f], 40, Done),
        ]);
        assert_eq!(g.outcome().unwrap().ranks, vec![2, 0, 0, 3]);
        let g = over_with(&[
            (80, [u, f, f], 26, Done),
            (80, [u, f, f], 25, Done),
            (99, [f, f, f], 50, Eliminated),
        ]);
        let o = g.outcome().unwrap();
        assert_eq!(o.ranks, vec![0, 1, 2]);
        assert_eq!(o.scores, vec![80, 80, 99]);
        let g = over_with(&[
            (10, [f, f, f], 5, Eliminated),
            (10, [f, f, f], 5, Eliminated),
            (0, [u, u, u], 0, Done),
        ]);
        assert_eq!(g.outcome().unwrap().ranks, vec![1, 1, 0]);
    }

    /// Empty quarry slots and empty piles cannot arise in play (at least 7 dominoes stay in the
    /// piles and an emptied pile is refilled at once); the checks still refuse them.
    #[test]
    fn empty_slots_and_piles_are_refused() {
        let mut g = Game::new(&Options::default(), 3).unwrap();
        g.quarry[1] = None;
        let before = g.clone();
        assert_eq!(
            g.play(&Move::Take(1)).map_err(|e| e.code()),
            Err("empty_quarry_slot")
        );
        assert_eq!(g, before);
        let mut g = Game::new(&Options::default(), 3).unwrap();
        g.play(&Move::Take(0)).unwrap();
        g.phase = Phase::Refill;
        g.piles[0].clear();
        let before = g.clone();
        assert_eq!(
            g.play(&Move::Refill(0)).map_err(|e| e.code()),
            Err("empty_pile")
        );
        assert_eq!(g, before);
        // With one pile empty the refill is automatic; with both, the slot stays empty.
        let mut g = Game::new(&Options::default(), 3).unwrap();
        g.play(&Move::Take(0)).unwrap();
        g.piles[0].clear();
        let top = g.pile_top(1);
        g.go_refill();
        assert_eq!(g.quarry[0], top);
        let mut g = Game::new(&Options::default(), 3).unwrap();
        g.play(&Move::Take(0)).unwrap();
        g.piles[0].clear();
        g.piles[1].clear();
        g.go_refill();
        assert_eq!(g.quarry[0], None);
    }
}
