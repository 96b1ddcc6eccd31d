//! The state of a game and its setup.
use crate::data::{self, DOMINO_COUNT, DominoId};
use crate::gems::{COLOURS, GEM_KINDS, Gem, Gems};
use crate::moves::Payment;
use crate::options::{Options, SoloMode};
use arrayvec::ArrayVec;
use pyramidion_core::{GameRng, Seat, Seed, SetupError};
use pyramidion_pyramid::topview::MAX_AREAS;
use pyramidion_pyramid::{Placement, Pyramid};
use serde::{Deserialize, Serialize};

pub const SPACES: usize = 5;
pub const STAGES: u8 = 4;
/// Gems a player may keep between stages.
pub const INVENTORY_LIMIT: u32 = 5;
/// Piles start with at most 18 dominoes and only an empty pile is ever refilled (with at
/// most half of another), so no pile ever holds more.
pub const PILE_CAPACITY: usize = 18;
pub const DOMINOES_PER_PYRAMID: usize = 20;

/// A pile of the exploration area; the last domino is the top.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pile {
    pub(crate) dominoes: ArrayVec<DominoId, PILE_CAPACITY>,
    /// Whether the top domino is face up (a face-down top shows its back).
    pub(crate) face_up: bool,
}

impl Pile {
    pub fn len(&self) -> usize {
        self.dominoes.len()
    }
    pub fn is_empty(&self) -> bool {
        self.dominoes.is_empty()
    }
    pub fn top(&self) -> Option<DominoId> {
        self.dominoes.last().copied()
    }
    /// The face-up domino of this space, if any.
    pub fn face_up_top(&self) -> Option<DominoId> {
        if self.face_up { self.top() } else { None }
    }
    pub fn flippable(&self) -> bool {
        !self.face_up && !self.is_empty()
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Player {
    pub(crate) pyramid: Pyramid,
    /// Dominoes placed, in order.
    pub(crate) dominoes: ArrayVec<DominoId, DOMINOES_PER_PYRAMID>,
    pub(crate) gems: Gems,
    pub(crate) stage_scores: [u16; STAGES as usize],
    /// No slot left on the current stage (full, or gaps no domino fits).
    pub(crate) stage_complete: bool,
    pub(crate) last_placement: Option<(u8, Placement)>,
    /// Every area activated at the stage ends so far, for the per-area breakdown the table
    /// shows (as in the rulebook's examples). Fixed capacity rather than a `Vec`: random
    /// playouts pushed to it at every stage end, and allocation showed in their profiles.
    pub(crate) scored_areas: ArrayVec<ScoredArea, SCORED_AREAS_CAPACITY>,
}

/// A bound on the activations of one player over a game. Each costs at least one gem; a turn
/// gains at most one gem and every stage end but the last discards down to
/// [`INVENTORY_LIMIT`], so a stage reached by play ends with at most 5 + its dominoes gems
/// (stages 2–4 hold 6, 3 and 1 dominoes). A constructed stage end (any gems) activates at
/// most every area of its top view, and the stages after it are then reached by play.
pub const SCORED_AREAS_CAPACITY: usize = MAX_AREAS
    + (INVENTORY_LIMIT as usize + 6)
    + (INVENTORY_LIMIT as usize + 3)
    + (INVENTORY_LIMIT as usize + 1);

/// An area a player activated at a stage end.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ScoredArea {
    /// 0–3.
    pub stage: u8,
    pub area: ScorableArea,
    pub payment: Payment,
}

impl Player {
    pub fn pyramid(&self) -> &Pyramid {
        &self.pyramid
    }
    pub fn gems(&self) -> Gems {
        self.gems
    }
    pub fn stage_scores(&self) -> [u16; STAGES as usize] {
        self.stage_scores
    }
    pub fn total(&self) -> u32 {
        self.stage_scores.iter().map(|&s| s as u32).sum()
    }
    pub fn stage_complete(&self) -> bool {
        self.stage_complete
    }
    pub fn dominoes(&self) -> &[DominoId] {
        &self.dominoes
    }
    pub fn scored_areas(&self) -> &[ScoredArea] {
        &self.scored_areas
    }
}

/// One of THE Legend's turns, as the table and the log tell it (all public: his takes happen in
/// the open at a real table).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LegendTurn {
    /// The ply of the player's move his turn followed (he plays inside that move).
    pub ply: u32,
    /// His wishes this turn: the icon colours of his top domino (0–4, may be equal).
    pub wishes: [u8; 2],
    /// Every gem he gained, the blind draw included.
    pub gems: Gems,
    /// The gems he collected from the gem areas, in the order he collected them, each with
    /// its space (0–4): the coloured ones first (his wishes), then the Mythicals.
    pub collected: [Option<(Gem, u8)>; 2],
    /// The space (0–4) whose domino he took.
    pub space: Option<u8>,
    pub domino: Option<DominoId>,
    /// The gem drawn blindly from the bag, when he found none.
    pub drew: Option<Gem>,
}

/// THE Legend takes a turn after each placement that does not complete the player's stage, and
/// a pyramid takes at most this many placements: his turns of a game fit.
pub const LEGEND_TURNS: usize = DOMINOES_PER_PYRAMID;

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Legend {
    pub(crate) mode: SoloMode,
    /// His face-up pile; the last is the top, whose icons are his wishes.
    pub(crate) pile: ArrayVec<DominoId, 32>,
    pub(crate) gems: Gems,
    pub(crate) stage_scores: [u16; STAGES as usize],
    /// Every turn he played, oldest first (the log shows them all, also after a reload).
    #[serde(default)]
    pub(crate) turns: ArrayVec<LegendTurn, LEGEND_TURNS>,
    /// Gem drawn at the start of the current stage ("Become THE Legend").
    pub(crate) stage_draw: Option<Gem>,
    /// Per stage, the coloured gems and Mythicals he scored (for the breakdown).
    pub(crate) scored_gems: [[u8; 2]; STAGES as usize],
}

impl Legend {
    pub fn total(&self) -> u32 {
        self.stage_scores.iter().map(|&s| s as u32).sum()
    }
    pub fn gems(&self) -> Gems {
        self.gems
    }
    pub fn pile(&self) -> &[DominoId] {
        &self.pile
    }
    pub fn last_turn(&self) -> Option<LegendTurn> {
        self.turns.last().copied()
    }
    /// Every turn he played, oldest first.
    pub fn turns(&self) -> &[LegendTurn] {
        &self.turns
    }
}

/// An area that can be activated (it shows at least one icon), at stage end.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ScorableArea {
    pub anchor: u8,
    pub colour: u8,
    pub icons: u8,
}

/// Stage-end scoring of the player to move.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct StageScoring {
    pub(crate) areas: ArrayVec<ScorableArea, { pyramidion_pyramid::topview::MAX_AREAS }>,
    /// Bit i: `areas[i]` is activated.
    pub(crate) activated: u128,
    pub(crate) activations: ArrayVec<(u8, Payment), { pyramidion_pyramid::topview::MAX_AREAS }>,
    /// Gems placed on the pyramid so far (to the discard when the player is done).
    pub(crate) spent: Gems,
    pub(crate) points: u16,
    /// Per colour, derived from `areas` (which come by colour) and `activated`: the index of
    /// its first area, and how many of its areas are not activated yet. Kept because every
    /// open area of a colour offers the same payments, so random playouts count and find
    /// stage-end moves per colour instead of per area.
    pub(crate) colour_starts: [u8; COLOURS],
    pub(crate) open_by_colour: [u8; COLOURS],
    /// `index_by_anchor[a >> 5][a & 31]`: the index in `areas` of the area whose anchor is
    /// quadrant `a` (meaningless for other quadrants). Activations name areas by anchor;
    /// searching the list for it mispredicted on every activation of every random playout.
    /// (Rows of 32 because serde has arrays of at most 32 elements.)
    pub(crate) index_by_anchor: [[u8; 32]; 4],
}

impl StageScoring {
    pub fn areas(&self) -> &[ScorableArea] {
        &self.areas
    }
    /// The index in [`StageScoring::areas`] of the area anchored at `anchor`, if any.
    #[inline]
    pub(crate) fn area_index(&self, anchor: u8) -> Option<usize> {
        let row = self.index_by_anchor.get(anchor as usize >> 5)?;
        let i = row[anchor as usize & 31] as usize;
        self.areas
            .get(i)
            .is_some_and(|a| a.anchor == anchor)
            .then_some(i)
    }
    /// `colour_starts` and `open_by_colour`, computed from the areas.
    #[cfg(feature = "testkit")]
    pub(crate) fn colour_index(&self) -> ([u8; COLOURS], [u8; COLOURS]) {
        let mut counts = [0; COLOURS];
        let mut open = [0; COLOURS];
        for (i, area) in self.areas.iter().enumerate() {
            counts[area.colour as usize] += 1;
            open[area.colour as usize] += u8::from(self.activated >> i & 1 == 0);
        }
        // Areas come by colour: a colour starts after all areas of the colours before it.
        let mut starts = [0; COLOURS];
        for c in 1..COLOURS {
            starts[c] = starts[c - 1] + counts[c - 1];
        }
        (starts, open)
    }

    /// The `rank`-th (from 0) area of `colour` not activated yet; `colour` has more than
    /// `rank` open areas.
    pub(crate) fn open_area(&self, colour: u8, rank: u32) -> &ScorableArea {
        let start = self.colour_starts[colour as usize] as u32;
        // Bits from the colour's first area on; its open areas come first, in order.
        let mut open = !self.activated >> start;
        // Ranks 0 and 1 (most picks) without a branch: a loop of a random 0 or 1 steps
        // mispredicted its exit on half the picks.
        let skip_first = open & (open - 1);
        open = if rank >= 1 { skip_first } else { open };
        for _ in 1..rank {
            open &= open - 1;
        }
        &self.areas[(start + open.trailing_zeros()) as usize]
    }

    /// The areas not activated yet, in order.
    pub(crate) fn open_areas(&self) -> impl Iterator<Item = &ScorableArea> {
        // Shift the mask along rather than testing bit i (a variable u128 shift) per area.
        let mut activated = self.activated;
        self.areas.iter().filter(move |_| {
            let open = activated & 1 == 0;
            activated >>= 1;
            open
        })
    }
    pub fn activations(&self) -> &[(u8, Payment)] {
        &self.activations
    }
    pub fn points(&self) -> u16 {
        self.points
    }
    pub fn spent(&self) -> Gems {
        self.spent
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Step 1: take a face-up domino and a gem.
    Take,
    /// Step 3: flip a face-down pile.
    Flip,
    /// Step 4: place the domino in hand.
    Place,
    /// Stage end: activate areas, then `done`.
    Activate,
    /// Stage end: discard down to 5 gems.
    Discard,
    Over,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    pub(crate) options: Options,
    pub(crate) rng: GameRng,
    pub(crate) ply: u32,
    /// Stage index, 0 = stage 1.
    pub(crate) stage: u8,
    pub(crate) phase: Phase,
    pub(crate) current: u8,
    /// First player of the current stage (turn order runs clockwise from here).
    pub(crate) stage_first: u8,
    pub(crate) piles: [Pile; SPACES],
    pub(crate) gem_areas: [Gems; SPACES],
    pub(crate) bag: Gems,
    pub(crate) discard: Gems,
    pub(crate) players: ArrayVec<Player, 4>,
    pub(crate) legend: Option<Legend>,
    pub(crate) scoring: Option<StageScoring>,
    pub(crate) hand: Option<DominoId>,
    /// Per space, its take moves as a mask: bit `g` for each gem kind `g` in its gem area,
    /// or [`TAKE_WITHOUT_GEM`] alone when the area is empty; 0 while the pile shows no
    /// face-up domino. Derived from `piles` and `gem_areas`, and refreshed wherever a space's
    /// gem area is replenished or its pile flipped (every change to either ends with one of
    /// the two), so that random playouts find a take move without reading them all.
    pub(crate) take_options: [u8; SPACES],
    /// Bit `s`: pile `s` can be flipped ([`Pile::flippable`]). Derived and refreshed like
    /// `take_options`, for the flip step and for knowing whether there is one.
    pub(crate) flippable: u8,
}

/// The bit of [`Game::take_options`] for "take the domino without a gem".
pub(crate) const TAKE_WITHOUT_GEM: u8 = 1 << GEM_KINDS;

impl Game {
    pub fn setup(options: &Options, seed: Seed) -> Result<Game, SetupError> {
        options.validate()?;
        let mut rng = GameRng::from_seed(seed);
        let mut ids = ArrayVec::from(std::array::from_fn::<DominoId, DOMINO_COUNT, _>(|i| {
            i as u8
        }));
        rng.shuffle(&mut ids);
        let legend = options.solo.map(|mode| Legend {
            mode,
            pile: std::iter::once(ids.pop().expect("90 dominoes")).collect(),
            gems: Gems::default(),
            stage_scores: [0; 4],
            turns: ArrayVec::new(),
            stage_draw: None,
            scored_gems: [[0; 2]; STAGES as usize],
        });
        let mut piles: [Pile; SPACES] = Default::default();
        // Five roughly equal piles: sizes differ by at most one, larger ones on the left.
        let (base, extra) = (ids.len() / SPACES, ids.len() % SPACES);
        let mut rest = &ids[..];
        for (i, pile) in piles.iter_mut().enumerate() {
            let n = base + usize::from(i < extra);
            pile.dominoes
                .try_extend_from_slice(&rest[..n])
                .expect("piles start with at most 18 dominoes");
            rest = &rest[n..];
        }
        for i in [0, 2, 4] {
            piles[i].face_up = true;
        }
        let mut game = Game {
            options: *options,
            rng,
            ply: 0,
            stage: 0,
            phase: Phase::Take,
            current: 0,
            stage_first: 0,
            piles,
            gem_areas: Default::default(),
            bag: Gems::full_supply(),
            discard: Gems::default(),
            players: (0..options.players).map(|_| Player::default()).collect(),
            legend,
            scoring: None,
            hand: None,
            take_options: [0; SPACES],
            flippable: 0,
        };
        for space in 0..SPACES {
            game.replenish(space);
        }
        Ok(game)
    }

    /// Draws one gem from the bag; an empty bag first takes back the discards.
    #[inline]
    pub(crate) fn draw_gem(&mut self) -> Option<Gem> {
        if self.bag.is_empty() {
            self.bag = self.discard.take_all();
        }
        let i = self.rng.pick_weighted(&self.bag.0)?;
        let gem = Gem::from_index(i);
        self.bag.remove(gem, 1);
        Some(gem)
    }

    /// Fills an empty gem area with 3 gems (fewer if bag and discards run dry). Setup, a take
    /// and THE Legend's turn end here for every space they changed, so this also refreshes
    /// the space's moves (a flip refreshes its own).
    pub(crate) fn replenish(&mut self, space: usize) {
        if self.gem_areas[space].is_empty() {
            for _ in 0..3 {
                match self.draw_gem() {
                    Some(g) => self.gem_areas[space].add(g, 1),
                    None => break,
                }
            }
        }
        self.refresh_space_moves(space);
    }

    /// Recomputes [`Game::take_options`] and [`Game::flippable`] of `space` from its pile and
    /// gem area.
    #[inline]
    pub(crate) fn refresh_space_moves(&mut self, space: usize) {
        let bit = 1 << space;
        self.flippable = if self.piles[space].flippable() {
            self.flippable | bit
        } else {
            self.flippable & !bit
        };
        self.take_options[space] = if self.piles[space].face_up_top().is_none() {
            0
        } else {
            match self.gem_areas[space].kinds_mask() {
                0 => TAKE_WITHOUT_GEM,
                kinds => kinds,
            }
        };
    }

    /// An emptied pile takes the bottom half of the largest other pile (leftmost on ties).
    pub(crate) fn refill_pile(&mut self, space: usize) {
        debug_assert!(self.piles[space].is_empty());
        let donor = (0..SPACES)
            .filter(|&j| j != space)
            .max_by_key(|&j| (self.piles[j].len(), std::cmp::Reverse(j)))
            .expect("other piles exist");
        let n = self.piles[donor].len() / 2;
        if n == 0 {
            return;
        }
        let moved: ArrayVec<DominoId, PILE_CAPACITY> =
            self.piles[donor].dominoes.drain(..n).collect();
        self.piles[space].dominoes = moved;
        self.piles[space].face_up = false;
    }

    /// Takes the face-up domino of `space`, refilling the pile if it empties.
    #[inline]
    pub(crate) fn take_domino(&mut self, space: usize) -> DominoId {
        let pile = &mut self.piles[space];
        let id = pile.dominoes.pop().expect("face-up top exists");
        pile.face_up = false;
        if pile.is_empty() {
            self.refill_pile(space);
        }
        id
    }

    // ---- read access -------------------------------------------------------------------

    pub fn options(&self) -> &Options {
        &self.options
    }
    /// Stage index, 0 = stage 1.
    pub fn stage(&self) -> u8 {
        self.stage
    }
    pub fn phase(&self) -> Phase {
        self.phase
    }
    pub fn current(&self) -> Seat {
        Seat(self.current)
    }
    pub fn stage_first(&self) -> Seat {
        Seat(self.stage_first)
    }
    pub fn players(&self) -> &[Player] {
        &self.players
    }
    pub fn player(&self, seat: Seat) -> &Player {
        &self.players[seat.index()]
    }
    pub fn piles(&self) -> &[Pile; SPACES] {
        &self.piles
    }
    /// The spaces (a bit each, space 0 lowest) whose pile shows a face-up domino: the ones
    /// players may take from and THE Legend searches.
    pub fn face_up_spaces(&self) -> u8 {
        (0..SPACES)
            .filter(|&s| self.piles[s].face_up_top().is_some())
            .fold(0, |mask, s| mask | 1 << s)
    }
    pub fn gem_areas(&self) -> &[Gems; SPACES] {
        &self.gem_areas
    }
    pub fn bag(&self) -> Gems {
        self.bag
    }
    pub fn discard(&self) -> Gems {
        self.discard
    }
    pub fn legend(&self) -> Option<&Legend> {
        self.legend.as_ref()
    }
    pub fn scoring(&self) -> Option<&StageScoring> {
        self.scoring.as_ref()
    }
    /// The domino taken this turn, waiting to be placed.
    pub fn hand(&self) -> Option<DominoId> {
        self.hand
    }
    pub fn hand_domino(&self) -> Option<&'static data::Domino> {
        self.hand.map(data::get)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setup_matches_the_rulebook() {
        let g = Game::setup(&Options::multiplayer(4), 1).unwrap();
        assert_eq!(
            g.piles.iter().map(|p| p.len()).collect::<Vec<_>>(),
            vec![18; 5]
        );
        assert_eq!(
            g.piles.iter().map(|p| p.face_up).collect::<Vec<_>>(),
            vec![true, false, true, false, true]
        );
        assert!(g.gem_areas.iter().all(|a| a.total() == 3));
        assert_eq!(g.bag.total(), 63 - 15);
        let solo = Game::setup(&Options::solo(SoloMode::ALegend), 1).unwrap();
        assert_eq!(solo.legend.as_ref().unwrap().pile.len(), 1);
        assert_eq!(solo.piles.iter().map(|p| p.len()).sum::<usize>(), 89);
    }

    #[test]
    fn bad_options_are_refused_with_codes() {
        use pyramidion_core::ErrorCode;
        let code = |o: Options| Game::setup(&o, 1).unwrap_err().code();
        assert_eq!(code(Options::multiplayer(5)), "bad_player_count");
        assert_eq!(code(Options::multiplayer(0)), "bad_player_count");
        assert_eq!(code(Options::multiplayer(1)), "solo_mode_required");
        assert_eq!(
            code(Options {
                players: 3,
                solo: Some(SoloMode::ALegend)
            }),
            "solo_mode_needs_one_player"
        );
    }

    #[test]
    fn emptied_pile_takes_bottom_half_of_largest_other_leftmost_on_ties() {
        let mut g = Game::setup(&Options::multiplayer(2), 1).unwrap();
        g.piles[1].dominoes.truncate(5);
        g.piles[3].dominoes.truncate(18);
        g.piles[4].dominoes.truncate(12);
        // Piles 0 and 3 both have 18: pile 0 (leftmost) gives.
        g.piles[2].dominoes.truncate(1);
        let bottom: Vec<_> = g.piles[0].dominoes[..9].to_vec();
        let top0 = g.piles[0].top();
        assert!(g.piles[2].face_up);
        g.take_domino(2);
        assert_eq!(g.piles[2].dominoes.to_vec(), bottom);
        assert!(!g.piles[2].face_up, "the refilled pile's top is face down");
        assert_eq!(g.piles[0].len(), 9);
        assert_eq!(g.piles[0].top(), top0, "the donor keeps its top");
    }

    #[test]
    fn pile_is_not_refilled_from_piles_of_one() {
        let mut g = Game::setup(&Options::multiplayer(2), 1).unwrap();
        for p in g.piles.iter_mut() {
            p.dominoes.truncate(1);
        }
        g.take_domino(0);
        assert!(g.piles[0].is_empty());
    }

    #[test]
    fn bag_refills_from_discards_and_gem_area_takes_what_there_is() {
        let mut g = Game::setup(&Options::multiplayer(2), 1).unwrap();
        // Move the whole bag into a player's inventory but two gems into the discard.
        let mut bag = g.bag.take_all();
        bag.remove(Gem::Red, 2);
        g.players[0].gems.add_all(&bag);
        g.discard.add(Gem::Red, 2);
        g.gem_areas[1] = Gems::default();
        g.replenish(1);
        assert_eq!(
            g.gem_areas[1].get(Gem::Red),
            2,
            "discards went back to the bag first"
        );
        assert!(g.bag.is_empty() && g.discard.is_empty());
        assert_eq!(g.draw_gem(), None);
    }
}
