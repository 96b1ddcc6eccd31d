//! What a seat (or a spectator) may see. The only way information leaves a [`Game`].
//!
//! The platform's envelope ([`Envelope`]: `seats`, each a [`SeatSummary`] with `stage_points`,
//! `to_move`, `phase`, `stage`, `stages`, `first_player` and `outcome`), `automa` (THE Legend's
//! [`AutomaSummary`] in solo); the rest is the game's own. Colours travel by name ([`Colour`]) and
//! gems as counts by name ([`Gems`]' serde form), never by their place in an array.
//!
//! Hidden from everybody: face-down domino fronts (only the back of a face-down pile top is
//! shown), the order of the piles below their tops, the bag (it has no order; only its size
//! is shown, its contents follow from everything visible), the seed and the RNG.
use crate::allocation::best_plan;
use crate::data::{self, BackBlock, DominoId};
use crate::gems::{Colour, Gem, Gems};
use crate::moves::{Move, Payment};
use crate::options::{Options, SoloMode};
use crate::scoring::{POINTS_PER_MYTHICAL_KEPT, activation_points, affordable_payments};
use crate::state::{Game, LegendTurn, Phase, SPACES};
use pyramidion_core::{AutomaSummary, Envelope, Seat, SeatSummary};
use pyramidion_pyramid::topview::area_name;
use pyramidion_pyramid::{Block, FrameRect, Placement, Quadrants};
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct View {
    #[serde(flatten)]
    pub envelope: Envelope<SeatView, Phase>,
    pub game: &'static str,
    pub seat: Option<Seat>,
    pub options: Options,
    pub ply: u32,
    pub spaces: Vec<SpaceView>,
    pub bag_size: u32,
    pub discard: Gems,
    /// The domino taken this turn (face up), waiting to be placed.
    pub hand: Option<DominoView>,
    pub scoring: Option<ScoringView>,
    pub legend: Option<LegendView>,
    /// THE Legend as the scoreboard and the result show him beside the seats (solo only).
    pub automa: Option<AutomaSummary>,
}

#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct DominoView {
    pub id: DominoId,
    /// Block A (west) and B (east) of the domino lying east-west.
    pub blocks: [ColouredBlock; 2],
}

impl DominoView {
    pub(crate) fn of(id: DominoId) -> DominoView {
        DominoView {
            id,
            blocks: data::get(id).blocks.map(ColouredBlock::of),
        }
    }
}

/// A block as views show it: its colour by name and its icons' quadrants (bits as in
/// [`pyramidion_pyramid::placement::Quadrants`]: 1 nw, 2 ne, 4 sw, 8 se).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct ColouredBlock {
    pub colour: Colour,
    pub icons: Quadrants,
}

impl ColouredBlock {
    pub(crate) fn of(block: Block) -> ColouredBlock {
        ColouredBlock {
            colour: Colour::of_index(block.colour),
            icons: block.icons,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PileTop {
    FaceUp { domino: DominoView },
    FaceDown { back: [BackBlock; 2] },
    Empty,
}

#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct SpaceView {
    pub pile_size: usize,
    pub top: PileTop,
    pub gems: Gems,
}

#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct BlockView {
    /// 1–4.
    pub stage: u8,
    /// Stage-local block coordinates (stage 1: the canvas), as in `place` moves.
    pub x: u8,
    pub y: u8,
    /// North-west quadrant on the top-view grid (10 wide), as in `activate` moves.
    pub quadrant: u32,
    pub block: ColouredBlock,
}

#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct SeatView {
    /// Points so far (every stage scored, and the stage being scored as it goes); per stage
    /// (1–4 at 0–3), its points once this seat has scored it, else `None`.
    #[serde(flatten)]
    pub summary: SeatSummary,
    pub gems: Gems,
    pub stage_complete: bool,
    /// Current stage of this pyramid (1–4; 5 when finished).
    pub pyramid_stage: u8,
    pub frame: Option<FrameRect>,
    pub blocks: Vec<BlockView>,
    pub dominoes: Vec<DominoId>,
    /// The last domino placed.
    pub last_placement: Option<LastPlacement>,
    /// Every area activated at past stage ends (the per-area breakdown of the scoring pad);
    /// a stage's score is these points plus `mythical_points` of that stage.
    pub scored_areas: Vec<ScoredAreaView>,
    /// Per stage (1–4 at 0–3): the points the Mythicals kept added when the stage was scored.
    pub mythical_points: [u16; 4],
}

/// Where a domino went: its stage (1–4), its placement, and the two cells it covers (A first).
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct LastPlacement {
    pub stage: u8,
    pub placement: Placement,
    pub cells: [(u8, u8); 2],
}

#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct ScoredAreaView {
    /// 1–4.
    pub stage: u8,
    pub name: String,
    pub colour: Colour,
    pub icons: u8,
    pub payment: Payment,
    pub points: u16,
}

#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct AreaView {
    pub name: String,
    pub colour: Colour,
    pub icons: u8,
    pub cells: Vec<u32>,
    pub activation: Option<Payment>,
    /// Points the activation added (when activated).
    pub activation_points: Option<u16>,
    /// While open, the payments the seat being scored can make for this area with the gems it
    /// holds now, each with its points and cost (only in that seat's own view). A plan of
    /// several activations spends the sum of their costs.
    pub payments: Vec<PaymentOption>,
}

/// One way to pay an area's activation: what it earns and which gems it spends.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct PaymentOption {
    pub text: String,
    pub payment: Payment,
    pub points: u16,
    /// Gems of the area's colour spent.
    pub coloured: u8,
    /// Mythical gems spent.
    pub mythical: u8,
}

#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct ScoringView {
    pub seat: Seat,
    pub areas: Vec<AreaView>,
    pub spent: Gems,
    /// Points from activations so far (Mythicals left are added when done).
    pub points: u16,
    /// What each Mythical still held will add when the seat is done, and what the ones held
    /// now would add: the stage total if the seat finished now is `points + mythical_kept`.
    pub points_per_mythical: u16,
    pub mythical_kept: u16,
    /// The engine's exact best completion from here (most points, then fewest gems), as
    /// `activate` moves, and the stage total it reaches with the Mythicals kept. Only in the
    /// view of the seat being scored (its own pyramid and gems: nothing hidden).
    pub best: Vec<BestActivation>,
    pub best_total: u32,
}

/// One activation of the best allocation: its move text and what it names.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct BestActivation {
    pub text: String,
    pub area: String,
    pub payment: Payment,
    pub points: u16,
}

#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct LegendView {
    pub mode: SoloMode,
    /// His pile, bottom first; every domino in it was face up when he took it.
    pub pile: Vec<DominoView>,
    /// Colours he wants next: the icon colours of his top domino.
    pub wishes: [Colour; 2],
    pub gems: Gems,
    /// Every turn he played, oldest first, each with the rule that chose what he took.
    pub turns: Vec<LegendTurnView>,
    pub stage_draw: Option<crate::gems::Gem>,
    /// Per finished stage, the coloured gems and Mythicals he scored and how they made his
    /// points (the scoring pad's breakdown).
    pub scored: Vec<LegendStageScore>,
}

/// One of THE Legend's turns: what he took and, for each take, the rule of his turn
/// (RULES.md, "His turn") that chose it, so that the log says why without a rule in the page.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct LegendTurnView {
    /// The ply of the player's move his turn followed.
    pub ply: u32,
    /// His wishes this turn: the colours of the gem icons of his top domino then.
    pub wishes: [Colour; 2],
    /// The gems he collected from the gem areas, in order.
    pub gems: Vec<LegendGemView>,
    /// His wishes he found in no face-up space.
    pub missed: Vec<Colour>,
    /// The space (0–4) whose domino he took, the domino, and why that one.
    pub space: Option<u8>,
    pub domino: Option<DominoView>,
    pub domino_reason: Option<LegendDominoReason>,
    /// The gem he drew blindly from the bag (he found none).
    pub drew: Option<Gem>,
}

#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct LegendGemView {
    pub gem: Gem,
    /// 0–4.
    pub space: u8,
    pub reason: LegendGemReason,
}

/// Why THE Legend collected a gem.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum LegendGemReason {
    /// A coloured gem matching a gem icon of his domino, the first he found scanning the
    /// face-up spaces from the left.
    Wish,
    /// A Mythical, searched from the leftmost face-up space, because he found no coloured gem
    /// for one of his wishes.
    MythicalForMissedWish,
}

/// Why THE Legend took the domino he took.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum LegendDominoReason {
    /// The domino of the space where he collected his last gem.
    SpaceOfLastGem,
    /// He found no gem: the leftmost face-up domino (and a gem drawn blindly from the bag).
    LeftmostFoundNoGem,
}

impl LegendTurnView {
    pub(crate) fn of(turn: &LegendTurn) -> LegendTurnView {
        let gems: Vec<LegendGemView> = turn
            .collected
            .iter()
            .flatten()
            .map(|&(gem, space)| LegendGemView {
                gem,
                space,
                reason: if gem == Gem::Mythical {
                    LegendGemReason::MythicalForMissedWish
                } else {
                    LegendGemReason::Wish
                },
            })
            .collect();
        // A wish is missed unless a coloured gem of its colour answered it (each gem answers
        // one wish: two equal wishes need two gems).
        let mut found: Vec<Gem> = gems.iter().map(|g| g.gem).collect();
        let missed = turn
            .wishes
            .iter()
            .copied()
            .filter(|&c| match found.iter().position(|&g| g == Gem::colour(c)) {
                Some(i) => {
                    found.swap_remove(i);
                    false
                }
                None => true,
            })
            .map(Colour::of_index)
            .collect();
        let domino_reason = turn.space.map(|_| {
            if gems.is_empty() {
                LegendDominoReason::LeftmostFoundNoGem
            } else {
                LegendDominoReason::SpaceOfLastGem
            }
        });
        LegendTurnView {
            ply: turn.ply,
            wishes: turn.wishes.map(Colour::of_index),
            gems,
            missed,
            space: turn.space,
            domino: turn.domino.map(DominoView::of),
            domino_reason,
            drew: turn.drew,
        }
    }
}

/// THE Legend's points at one stage end: each coloured gem is worth the stage number, each
/// Mythical 2.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct LegendStageScore {
    pub coloured: u8,
    pub coloured_value: u8,
    pub mythical: u8,
    pub mythical_value: u8,
    pub points: u32,
}

/// A total as the envelope counts points: a game's worth of them is far below `i32::MAX`.
fn points(total: u32) -> i32 {
    i32::try_from(total).unwrap_or(i32::MAX)
}

/// Whether `seat` has scored the stage being ended: seats score in the stage's turn order,
/// so during the activations every seat before the scorer has, and while the scorer discards
/// down to the limit, the scorer has too (its stage points are set when it says `done`).
fn has_scored_this_stage(game: &Game, seat: usize) -> bool {
    let n = game.players.len();
    let order = |s: usize| (s + n - game.stage_first as usize) % n;
    match game.phase {
        Phase::Activate => order(seat) < order(game.current as usize),
        Phase::Discard => order(seat) <= order(game.current as usize),
        _ => false,
    }
}

impl View {
    pub fn of(game: &Game, seat: Option<Seat>) -> View {
        let spaces = (0..SPACES)
            .map(|s| {
                let pile = &game.piles[s];
                let top = match pile.top() {
                    None => PileTop::Empty,
                    Some(id) if pile.face_up => PileTop::FaceUp {
                        domino: DominoView::of(id),
                    },
                    Some(id) => PileTop::FaceDown {
                        back: data::get(id).back(),
                    },
                };
                SpaceView {
                    pile_size: pile.len(),
                    top,
                    gems: game.gem_areas[s],
                }
            })
            .collect();
        // Stages every seat has scored (the pad's final columns).
        let scored_stages = game.stage as usize + usize::from(game.phase == Phase::Over);
        let stage_points = |scores: &[u16; 4], scored_now: bool| -> Vec<Option<i32>> {
            (0..4)
                .map(|s| {
                    let scored = s < scored_stages || (s == game.stage as usize && scored_now);
                    scored.then_some(i32::from(scores[s]))
                })
                .collect()
        };
        let seats = game
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| SeatView {
                // A seat that has scored the stage being ended shows it at once: its
                // total already counts those points.
                summary: SeatSummary::by_stage(
                    Seat(i as u8),
                    points(p.total()),
                    stage_points(&p.stage_scores, has_scored_this_stage(game, i)),
                ),
                gems: p.gems,
                stage_complete: p.stage_complete,
                pyramid_stage: p.pyramid.stage() + 1,
                frame: p.pyramid.frame(),
                blocks: p
                    .pyramid
                    .blocks()
                    .iter()
                    .zip(p.pyramid.block_quadrants())
                    .map(|(b, quadrant)| BlockView {
                        stage: b.stage + 1,
                        x: b.x,
                        y: b.y,
                        quadrant,
                        block: ColouredBlock::of(b.block),
                    })
                    .collect(),
                dominoes: p.dominoes.to_vec(),
                last_placement: p.last_placement.map(|(s, pl)| LastPlacement {
                    stage: s + 1,
                    placement: pl,
                    cells: [(pl.x, pl.y), pl.second().unwrap_or((pl.x, pl.y))],
                }),
                scored_areas: p
                    .scored_areas
                    .iter()
                    .map(|s| ScoredAreaView {
                        stage: s.stage + 1,
                        name: area_name(s.area.anchor),
                        colour: Colour::of_index(s.area.colour),
                        icons: s.area.icons,
                        payment: s.payment,
                        points: activation_points(s.area.icons, s.payment),
                    })
                    .collect(),
                mythical_points: std::array::from_fn(|stage| {
                    let from_areas: u16 = p
                        .scored_areas
                        .iter()
                        .filter(|s| s.stage as usize == stage)
                        .map(|s| activation_points(s.area.icons, s.payment))
                        .sum();
                    p.stage_scores[stage].saturating_sub(from_areas)
                }),
            })
            .collect();
        let scoring = game.scoring.as_ref().map(|sc| {
            let player = &game.players[game.current as usize];
            let top = player.pyramid.top_view();
            let own = seat == Some(Seat(game.current));
            let mut scoring = View::scoring(game.current, sc, &top, own.then_some(player.gems));
            scoring.mythical_kept = player.gems.mythical() as u16 * POINTS_PER_MYTHICAL_KEPT;
            scoring
        });
        let legend = game.legend.as_ref().map(|l| LegendView {
            mode: l.mode,
            pile: l.pile.iter().map(|&id| DominoView::of(id)).collect(),
            wishes: data::get(*l.pile.last().expect("never empty"))
                .icon_colours()
                .map(Colour::of_index),
            gems: l.gems,
            turns: l.turns.iter().map(LegendTurnView::of).collect(),
            stage_draw: l.stage_draw,
            scored: l.scored_gems[..scored_stages]
                .iter()
                .enumerate()
                .map(|(stage, &[coloured, mythical])| {
                    let one = |c, m| crate::legend_stage_points(stage as u8, c, m);
                    LegendStageScore {
                        coloured,
                        coloured_value: one(1, 0) as u8,
                        mythical,
                        mythical_value: one(0, 1) as u8,
                        points: one(coloured as u32, mythical as u32),
                    }
                })
                .collect(),
        });
        View {
            envelope: Envelope::of(game, seats, game.phase, Seat(game.stage_first)),
            game: "forgotten-treasures",
            seat,
            options: game.options,
            ply: game.ply,
            spaces,
            bag_size: game.bag.total(),
            discard: game.discard,
            hand: game.hand.map(DominoView::of),
            scoring,
            automa: game.legend.as_ref().map(|l| AutomaSummary {
                name: "legend",
                score: points(l.total()),
                stage_points: stage_points(&l.stage_scores, false),
            }),
            legend,
        }
    }

    fn scoring(
        seat: u8,
        sc: &crate::state::StageScoring,
        top: &pyramidion_pyramid::TopView,
        gems: Option<Gems>,
    ) -> ScoringView {
        let areas = sc
            .areas()
            .iter()
            .map(|a| {
                let cells = top.area_at(a.anchor as u32).map_or(0, |area| area.cells);
                let activation = sc
                    .activations()
                    .iter()
                    .find(|(anchor, _)| *anchor == a.anchor)
                    .map(|(_, p)| *p);
                let payments = match gems {
                    Some(gems) if activation.is_none() => {
                        payment_options(a.anchor, a.icons, a.colour, gems)
                    }
                    _ => Vec::new(),
                };
                AreaView {
                    name: area_name(a.anchor),
                    colour: Colour::of_index(a.colour),
                    icons: a.icons,
                    cells: pyramidion_pyramid::grid::bits(cells).collect(),
                    activation,
                    activation_points: activation.map(|p| activation_points(a.icons, p)),
                    payments,
                }
            })
            .collect();
        let (best, best_total) = match gems {
            Some(gems) => {
                let open = sc
                    .areas()
                    .iter()
                    .enumerate()
                    .filter(|(_, a)| {
                        !sc.activations()
                            .iter()
                            .any(|(anchor, _)| *anchor == a.anchor)
                    })
                    .fold(0u128, |mask, (i, _)| mask | 1 << i);
                let plan = best_plan(sc.areas(), open, gems);
                let moves = plan
                    .activations
                    .iter()
                    .map(|&(area, payment)| BestActivation {
                        text: Move::Activate { area, payment }.to_string(),
                        area: area_name(area),
                        payment,
                        points: sc
                            .areas()
                            .iter()
                            .find(|a| a.anchor == area)
                            .map_or(0, |a| activation_points(a.icons, payment)),
                    })
                    .collect();
                (moves, sc.points() as u32 + plan.points)
            }
            None => (Vec::new(), 0),
        };
        ScoringView {
            seat: Seat(seat),
            areas,
            spent: sc.spent(),
            points: sc.points(),
            points_per_mythical: POINTS_PER_MYTHICAL_KEPT,
            mythical_kept: 0,
            best,
            best_total,
        }
    }
}

/// The payments `gems` can make for the area anchored at `anchor` (as the legal moves list
/// them), with their points and costs.
fn payment_options(anchor: u8, icons: u8, colour: u8, gems: Gems) -> Vec<PaymentOption> {
    let colour_gem = crate::gems::Gem::colour(colour);
    let affordable = affordable_payments(gems.get(colour_gem), gems.mythical());
    Payment::ALL
        .iter()
        .enumerate()
        .filter(|(i, _)| affordable >> i & 1 == 1)
        .map(|(_, &payment)| {
            let (coloured, mythical) = payment.cost();
            PaymentOption {
                text: Move::Activate {
                    area: anchor,
                    payment,
                }
                .to_string(),
                payment,
                points: activation_points(icons, payment),
                coloured,
                mythical,
            }
        })
        .collect()
}
