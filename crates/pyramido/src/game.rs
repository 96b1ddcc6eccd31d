//! The game state and the [`Rules`] implementation.
use crate::data::{CARDS, COLOURS, DOMINO_COUNT, card_of, dominoes};
use crate::error::IllegalMove;
use crate::moves::{Move, MoveForm, Side};
use crate::score::{StageScore, next_first_player, score_stage};
use crate::view::View;
use arrayvec::ArrayVec;
use pyramidion_core::descriptor::GameDescriptor;
use pyramidion_core::{GameRng, Outcome, RankKey, Rules, Seat, Seed, SetupError, ToMove};
use pyramidion_pyramid::{Block, CANVAS_SIZE, Pyramid, StageGrid};
use serde::{Deserialize, Serialize};

/// Blocks of each stage: 5×4, 4×3, 3×2, 2×1.
pub const STAGE_BLOCKS: [u8; 4] = [20, 12, 6, 2];
pub const QUARRY_SLOTS: usize = 3;
pub const PILES: usize = 4;
pub const MAX_PLAYERS: usize = 4;
/// Dominoes in the piles at setup (the rest of the 90 after the quarry).
pub const PILE_CAPACITY: usize = DOMINO_COUNT - QUARRY_SLOTS;
/// Most dominoes one player places: 10 + 6 + 3 + 1.
pub const MAX_DOMINOES_PER_PLAYER: usize = 20;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// 2 to 4.
    pub players: u8,
}

impl Default for Options {
    fn default() -> Self {
        Options { players: 2 }
    }
}

impl Options {
    pub fn players(players: u8) -> Options {
        Options { players }
    }
}

/// What the seat to move decides now.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// Take a quarry domino.
    Take,
    /// Place the domino taken.
    Place,
    /// Choose which block of the new domino gets a jewel marker (only asked when there are two
    /// options; a single option is applied at once, none skips the step).
    Mark,
    /// Resurface an unmarked block of the new domino, or pass.
    Resurface,
    /// Refill the empty quarry slot from one of the two piles next to it.
    Refill,
    /// Cover the next hole of a stage no domino can complete.
    Cover,
    Over,
}

impl Step {
    fn expected(self) -> &'static str {
        match self {
            Step::Take => "'take <slot>'",
            Step::Place => "'place <cell> <dir>'",
            Step::Mark => "'mark <A|B>'",
            Step::Resurface => "'resurface <A|B> <colour> <quadrant>' or 'pass'",
            Step::Refill => "'refill <pile>'",
            Step::Cover => "'cover <hole> <colour> <quadrant>'",
            Step::Over => "nothing",
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Still placing dominoes on the current stage.
    Building,
    /// Current stage complete; waits for the others.
    Done,
    /// Could not cover the holes of a stage: lost the game.
    Eliminated,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pyramid: Pyramid,
    /// Block index (in `pyramid.blocks()`) of each placed jewel marker, by colour.
    markers: [Option<u8>; COLOURS],
    /// Block index of each used resurfacing card (card k: colours 2k / 2k+1).
    cards: [Option<u8>; CARDS],
    status: Status,
    /// Blocks on the current stage (dominoes and hole cards).
    stage_blocks: u8,
    /// Ids of the dominoes in this pyramid, in placing order.
    dominoes: ArrayVec<u8, MAX_DOMINOES_PER_PLAYER>,
    scores: ArrayVec<StageScore, 4>,
    total: u16,
}

impl Player {
    fn new() -> Player {
        Player {
            pyramid: Pyramid::default(),
            markers: [None; COLOURS],
            cards: [None; CARDS],
            status: Status::Building,
            stage_blocks: 0,
            dominoes: ArrayVec::new(),
            scores: ArrayVec::new(),
            total: 0,
        }
    }

    pub fn pyramid(&self) -> &Pyramid {
        &self.pyramid
    }
    /// Block index of the placed marker of each colour.
    pub fn markers(&self) -> &[Option<u8>; COLOURS] {
        &self.markers
    }
    /// Block index where each resurfacing card lies, `None` while unused.
    pub fn cards(&self) -> &[Option<u8>; CARDS] {
        &self.cards
    }
    pub fn unused_cards(&self) -> u32 {
        self.cards.iter().filter(|c| c.is_none()).count() as u32
    }
    pub fn status(&self) -> Status {
        self.status
    }
    pub fn dominoes(&self) -> &[u8] {
        &self.dominoes
    }
    /// Scores of the stages completed so far.
    pub fn scores(&self) -> &[StageScore] {
        &self.scores
    }
    pub fn total(&self) -> u16 {
        self.total
    }
    pub fn best_stage(&self) -> u16 {
        self.scores.iter().map(|s| s.total).max().unwrap_or(0)
    }
    fn alive(&self) -> bool {
        self.status != Status::Eliminated
    }
    /// Score of the current stage if it ended now.
    pub fn stage_value(&self) -> u16 {
        score_stage(&self.pyramid, &self.markers).total
    }
}

/// What the current turn has done so far.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Turn {
    /// Quarry slot taken.
    slot: u8,
    /// Domino taken (valid from `Step::Place`).
    domino: u8,
    /// Index of the new domino's block A in the pyramid's blocks (B follows).
    first_block: u8,
    /// Blocks of the new domino marked this turn (bit 0: A, bit 1: B).
    marked: u8,
    /// Holes to cover, lowest first (`Step::Cover`).
    holes: [(u8, u8); CARDS],
    hole_count: u8,
    hole_next: u8,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    options: Options,
    seats: u8,
    /// Stage index, 0 = stage 1.
    stage: u8,
    step: Step,
    current: u8,
    /// First seat of the current stage.
    first: u8,
    quarry: [Option<u8>; QUARRY_SLOTS],
    /// Face-up piles; the top is the last element.
    piles: [ArrayVec<u8, PILE_CAPACITY>; PILES],
    turn: Turn,
    players: ArrayVec<Player, MAX_PLAYERS>,
    ply: u32,
}

impl Game {
    /// A game whose shuffled tiles are `deck` (a permutation of the 90 ids): the first 3 form
    /// the quarry (slot 1, 2, 3), the rest are dealt into piles of 22, 22, 22, 21 in order,
    /// the last of each pile's run on top. [`Rules::new`] shuffles the deck with the seed.
    pub fn from_deck(options: &Options, deck: &[u8]) -> Result<Game, SetupError> {
        if !(2..=MAX_PLAYERS as u8).contains(&options.players) {
            return Err(SetupError::new(
                "bad_player_count",
                format!("Pyramido is for 2 to 4 players, not {}", options.players),
            ));
        }
        let mut seen = 0u128;
        for &d in deck {
            if d as usize >= DOMINO_COUNT || seen >> d & 1 == 1 {
                return Err(SetupError::new(
                    "bad_deck",
                    "the deck is not a permutation of the 90 dominoes",
                ));
            }
            seen |= 1 << d;
        }
        if deck.len() != DOMINO_COUNT {
            return Err(SetupError::new(
                "bad_deck",
                "the deck must hold the 90 dominoes",
            ));
        }
        let mut piles: [ArrayVec<u8, PILE_CAPACITY>; PILES] = Default::default();
        let mut start = QUARRY_SLOTS;
        for (p, pile) in piles.iter_mut().enumerate() {
            let len = PILE_CAPACITY / PILES + usize::from(p < PILE_CAPACITY % PILES);
            pile.extend(deck[start..start + len].iter().copied());
            start += len;
        }
        Ok(Game {
            options: options.clone(),
            seats: options.players,
            stage: 0,
            step: Step::Take,
            current: 0,
            first: 0,
            quarry: [Some(deck[0]), Some(deck[1]), Some(deck[2])],
            piles,
            turn: Turn::default(),
            players: (0..options.players).map(|_| Player::new()).collect(),
            ply: 0,
        })
    }

    /// Stage index (0 = stage 1).
    pub fn stage(&self) -> u8 {
        self.stage
    }
    pub fn step(&self) -> Step {
        self.step
    }
    pub fn current(&self) -> Seat {
        Seat(self.current)
    }
    /// First seat of the current stage.
    pub fn first_player(&self) -> Seat {
        Seat(self.first)
    }
    pub fn player(&self, seat: Seat) -> &Player {
        &self.players[seat.index()]
    }
    pub fn players(&self) -> &[Player] {
        &self.players
    }
    pub fn quarry(&self) -> [Option<u8>; QUARRY_SLOTS] {
        self.quarry
    }
    pub fn pile_top(&self, pile: usize) -> Option<u8> {
        self.piles[pile].last().copied()
    }
    pub fn pile_size(&self, pile: usize) -> usize {
        self.piles[pile].len()
    }
    /// The domino taken and not yet placed.
    pub fn held(&self) -> Option<u8> {
        (self.step == Step::Place).then_some(self.turn.domino)
    }
    /// The quarry slot taken this turn, until it is refilled.
    pub fn empty_slot(&self) -> Option<u8> {
        matches!(
            self.step,
            Step::Place | Step::Mark | Step::Resurface | Step::Refill
        )
        .then_some(self.turn.slot)
    }
    /// Index of the block A of the domino placed this turn (B follows), during the mark and
    /// resurface steps.
    pub fn new_blocks(&self) -> Option<usize> {
        matches!(self.step, Step::Mark | Step::Resurface).then_some(self.turn.first_block as usize)
    }
    /// Holes still to cover, the next first (`Step::Cover`).
    pub fn holes(&self) -> &[(u8, u8)] {
        if self.step == Step::Cover {
            &self.turn.holes[self.turn.hole_next as usize..self.turn.hole_count as usize]
        } else {
            &[]
        }
    }
    /// Score `seat` would get for the current stage if it ended now.
    pub fn stage_value(&self, seat: Seat) -> u16 {
        self.players[seat.index()].stage_value()
    }

    fn cur(&self) -> &Player {
        &self.players[self.current as usize]
    }
    fn cur_mut(&mut self) -> &mut Player {
        &mut self.players[self.current as usize]
    }

    #[cfg(feature = "testkit")]
    pub(crate) fn pile_contents(&self, pile: usize) -> &[u8] {
        &self.piles[pile]
    }

    /// Hidden dominoes: every pile below its top.
    pub(crate) fn hidden(&self) -> impl Iterator<Item = u8> + '_ {
        self.piles
            .iter()
            .flat_map(|p| p[..p.len().saturating_sub(1)].iter().copied())
    }

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
            _ => self.step = Step::Mark,
        }
    }

    fn after_mark(&mut self) {
        if self.cur().cards.iter().any(Option::is_none) && self.turn.marked != 0b11 {
            self.step = Step::Resurface;
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
            (false, false) => self.step = Step::Refill,
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
                self.step = Step::Over;
            } else {
                self.advance();
            }
            return;
        }
        self.turn.holes = holes;
        self.turn.hole_count = count as u8;
        self.turn.hole_next = 0;
        self.step = Step::Cover;
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
                self.step = Step::Take;
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
            self.step = Step::Over;
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
        self.step = Step::Take;
        self.turn = Turn::default();
    }

    // ----- checks ----------------------------------------------------------------------------

    fn check(&self, m: &Move) -> Result<(), IllegalMove> {
        let wrong = IllegalMove::WrongStep {
            expected: self.step.expected(),
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
        match (self.step, *m) {
            (Step::Over, _) => Err(IllegalMove::GameOver),
            (Step::Take, Move::Take(slot)) => match self.quarry.get(slot as usize) {
                None => Err(IllegalMove::NoSuchSlot(slot)),
                Some(None) => Err(IllegalMove::EmptySlot(slot)),
                Some(Some(_)) => Ok(()),
            },
            (Step::Place, Move::Place(p)) => {
                self.cur().pyramid.check(&p).map_err(IllegalMove::Placement)
            }
            // The mark step is only asked when both blocks may take a marker.
            (Step::Mark, Move::Mark(_)) => Ok(()),
            (Step::Resurface, Move::Pass) => Ok(()),
            (
                Step::Resurface,
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
            (Step::Refill, Move::Refill(pile)) => {
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
                Step::Cover,
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

/// Free cells of the current stage once its frame is known, as a bitboard on a 9×9 grid of
/// stage-local cells (bit `y * 9 + x`); 0 before stage 1's frame is forced.
pub fn free_cells(pyramid: &Pyramid) -> u128 {
    let mut free = 0u128;
    for_each_hole(pyramid, |x, y| free |= 1 << (y as u32 * 9 + x as u32));
    free
}

/// The fewest cells of the current stage that dominoes can no longer fill however the stage
/// is completed (each will need a resurfacing card): free cells minus twice a maximum matching
/// of the free cells' grid graph. Before stage 1's frame is forced, the best of the frames
/// that could still hold the blocks.
pub fn min_holes(pyramid: &Pyramid) -> u32 {
    let holes = |free: u128| free.count_ones() - 2 * max_matching(free);
    if pyramid.stage() > 0 || pyramid.canvas().frame().is_some() {
        return holes(free_cells(pyramid));
    }
    let canvas = pyramid.canvas();
    if canvas.is_empty() {
        return 0;
    }
    let occupied = canvas.occupied();
    let mut best = u32::MAX;
    for &window in frame_windows() {
        if occupied & !window == 0 {
            best = best.min(holes(window & !occupied));
            if best == 0 {
                break;
            }
        }
    }
    best
}

/// Every 5×4 and 4×5 window of the 9×9 canvas, as cell masks (bit `y * 9 + x`).
fn frame_windows() -> &'static [u128] {
    static WINDOWS: std::sync::OnceLock<Vec<u128>> = std::sync::OnceLock::new();
    WINDOWS.get_or_init(|| {
        let n = CANVAS_SIZE as u32;
        let mut out = Vec::new();
        for (w, h) in [(5u32, 4u32), (4, 5)] {
            for y0 in 0..=n - h {
                for x0 in 0..=n - w {
                    let mut window = 0u128;
                    for y in y0..y0 + h {
                        window |= ((1u128 << w) - 1) << (y * n + x0);
                    }
                    out.push(window);
                }
            }
        }
        out
    })
}

/// Maximum matching of orthogonally adjacent cells of `free` (9×9 grid): a greedy start, then
/// augmenting paths from the unmatched cells with even `x + y`.
fn max_matching(free: u128) -> u32 {
    const NONE: u8 = u8::MAX;
    const COLUMN_0: u128 = 0x1008040201008040201; // x == 0 on every row
    const COLUMN_8: u128 = COLUMN_0 << 8;
    #[inline]
    fn neighbours(cell: u32) -> u128 {
        let b = 1u128 << cell;
        ((b << 1) & !COLUMN_0) | ((b >> 1) & !COLUMN_8) | (b << 9) | (b >> 9)
    }
    fn augment(cell: u32, free: u128, mate: &mut [u8; 81], visited: &mut u128) -> bool {
        let mut next = neighbours(cell) & free & !*visited;
        while next != 0 {
            let n = next.trailing_zeros();
            next &= next - 1;
            if *visited >> n & 1 == 1 {
                continue;
            }
            *visited |= 1 << n;
            let m = mate[n as usize];
            if m == NONE || augment(m as u32, free, mate, visited) {
                mate[n as usize] = cell as u8;
                return true;
            }
        }
        false
    }
    // With 9 columns, x + y and y * 9 + x have the same parity: even cells are even bits.
    const EVEN: u128 = 0x5555_5555_5555_5555_5555_5555_5555_5555;
    let mut mate = [NONE; 81];
    let mut taken = 0u128;
    let mut unmatched = 0u128;
    let mut count = 0;
    let mut rest = free & EVEN;
    while rest != 0 {
        let cell = rest.trailing_zeros();
        rest &= rest - 1;
        let options = neighbours(cell) & free & !taken;
        if options == 0 {
            unmatched |= 1 << cell;
        } else {
            let n = options.trailing_zeros();
            taken |= 1 << n;
            mate[n as usize] = cell as u8;
            count += 1;
        }
    }
    while unmatched != 0 {
        let cell = unmatched.trailing_zeros();
        unmatched &= unmatched - 1;
        let mut visited = 0u128;
        if augment(cell, free, &mut mate, &mut visited) {
            count += 1;
        }
    }
    count
}

impl Rules for Game {
    type Options = Options;
    type Move = Move;
    type View = View;
    type Error = IllegalMove;
    type Form = MoveForm;

    const DESCRIPTOR: &'static GameDescriptor = &crate::descriptor::DESCRIPTOR;

    fn form(&self, m: &Move) -> MoveForm {
        MoveForm::of(self, m)
    }

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
        if self.step == Step::Over {
            ToMove::Over
        } else {
            ToMove::Seat(Seat(self.current))
        }
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        match self.step {
            Step::Take => {
                for (slot, d) in self.quarry.iter().enumerate() {
                    if d.is_some() {
                        out.push(Move::Take(slot as u8));
                    }
                }
            }
            Step::Place => self.cur().pyramid.legal(|p| out.push(Move::Place(p))),
            Step::Mark => out.extend([Move::Mark(Side::A), Move::Mark(Side::B)]),
            Step::Resurface => {
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
            Step::Refill => {
                let s = self.turn.slot;
                for pile in [s, s + 1] {
                    if !self.piles[pile as usize].is_empty() {
                        out.push(Move::Refill(pile));
                    }
                }
            }
            Step::Cover => {
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
            Step::Over => {}
        }
    }

    fn play(&mut self, m: &Move) -> Result<(), IllegalMove> {
        self.check(m)?;
        self.play_unchecked(m);
        Ok(())
    }

    fn play_unchecked(&mut self, m: &Move) {
        self.ply += 1;
        match *m {
            Move::Take(slot) => {
                self.turn.slot = slot;
                self.turn.domino = self.quarry[slot as usize]
                    .take()
                    .expect("a domino in the slot");
                self.step = Step::Place;
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
        if self.step != Step::Over {
            return None;
        }
        // An eliminated player ranks below every player still in the game, whatever the
        // points (RULES.md); then points, unused resurfacing cards, best stage.
        let alive = |p: &Player| p.alive();
        let keys = vec![
            RankKey::new("in_game", self.players.iter().map(|p| i32::from(alive(p)))),
            RankKey::new(
                "score",
                self.players
                    .iter()
                    .map(|p| if alive(p) { p.total as i32 } else { 0 }),
            ),
            RankKey::new(
                "unused_cards",
                self.players
                    .iter()
                    .map(|p| if alive(p) { p.unused_cards() as i32 } else { 0 }),
            ),
            RankKey::new(
                "best_stage",
                self.players
                    .iter()
                    .map(|p| if alive(p) { p.best_stage() as i32 } else { 0 }),
            ),
        ];
        Some(Outcome::ranked(
            self.players.iter().map(|p| p.total as i32).collect(),
            keys,
        ))
    }

    fn determinize(&self, _seat: Seat, rng: &mut GameRng) -> Self {
        // Every seat sees the same: all placed dominoes, the quarry, the pile tops and sizes.
        // Hidden are the dominoes below the pile tops; reshuffle them among those places. No
        // chance event follows setup, so the state holds no generator to reseed.
        let mut hidden: ArrayVec<u8, PILE_CAPACITY> = self.hidden().collect();
        rng.shuffle(&mut hidden);
        let mut copy = self.clone();
        let mut next = hidden.into_iter();
        for pile in copy.piles.iter_mut() {
            let below = pile.len().saturating_sub(1);
            for slot in &mut pile[..below] {
                *slot = next.next().expect("as many hidden dominoes as places");
            }
        }
        copy
    }

    fn ply(&self) -> u32 {
        self.ply
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pyramidion_core::ErrorCode;

    /// Fewest uncovered cells by exhaustive search: the lowest cell is covered by a domino to its
    /// east or south, or left uncovered.
    fn brute_min_holes(free: u128) -> u32 {
        if free == 0 {
            return 0;
        }
        let i = free.trailing_zeros();
        let rest = free & !(1 << i);
        let mut best = 1 + brute_min_holes(rest);
        if i % 9 < 8 && rest >> (i + 1) & 1 == 1 {
            best = best.min(brute_min_holes(rest & !(1 << (i + 1))));
        }
        if i + 9 < 81 && rest >> (i + 9) & 1 == 1 {
            best = best.min(brute_min_holes(rest & !(1 << (i + 9))));
        }
        best
    }

    #[test]
    fn matching_finds_the_fewest_holes() {
        let mut rng = GameRng::from_seed(4);
        for _ in 0..3000 {
            // Random cells of a random window (up to 5×5 at a random place).
            let (w, h) = (1 + rng.below(5), 1 + rng.below(5));
            let (x0, y0) = (rng.below(10 - w), rng.below(10 - h));
            let density = 1 + rng.below(4);
            let mut free = 0u128;
            for y in y0..y0 + h {
                for x in x0..x0 + w {
                    if rng.below(4) < density {
                        free |= 1 << (y * 9 + x);
                    }
                }
            }
            let holes = free.count_ones() - 2 * max_matching(free);
            assert_eq!(holes, brute_min_holes(free), "{free:x}");
        }
    }

    fn over_with(keys: &[(u16, [bool; 3], u16, Status)]) -> Game {
        let mut g = Game::new(&Options::players(keys.len() as u8), 1).unwrap();
        g.step = Step::Over;
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
        g.step = Step::Refill;
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

    #[test]
    fn windows_cover_the_canvas() {
        assert_eq!(frame_windows().len(), 60);
        assert!(frame_windows().iter().all(|w| w.count_ones() == 20));
    }
}
