//! What one seat (or a spectator) may see.
//!
//! Public: every Pyramid and Obelisk, Tomb sizes, hand sizes, God tiles (and the tile set
//! aside), the quarry, the deck size, the discard pile (cards are discarded face up), public
//! scores. Private: a seat's own hand and Tomb. Never shown: the deck order, the RNG. At the
//! end every Tomb is revealed (and full scores shown); hands stay hidden.
//!
//! Every card in a view is a [`CardView`] whose id is under the key `"card"`.
//!
//! The platform's envelope ([`Envelope`]: `seats`, each a [`SeatSummary`], `to_move`,
//! `phase`, `stage` (the round) and `stages`, `first_player` and `outcome`) and the game's own
//! table; stones as arrays.
//! Colours travel by name, and counts per colour as objects keyed by colour name
//! ([`crate::data::per_colour`]), never by their place in an array.
use crate::data::Colour;
use crate::data::{CardId, Glyph, Stone, card};
use crate::moves::{Allowed, God};
use crate::necropolis::{PyramidScore, ROW_SIZES, Score, tomb_majorities, tomb_ties};
use crate::state::{Game, Phase};
use pyramidion_core::{Envelope, Rules, Seat, SeatSummary};
use serde::Serialize;

/// A card as views show it: its id (always under the key `"card"`), its glyph, and its stones
/// left to right, each `{colour, x0, x1}` (colour and x-interval on the card's 6-unit strip).
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct CardView {
    pub card: CardId,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub glyph: Option<Glyph>,
    pub stones: &'static [Stone],
}

impl CardView {
    pub fn new(id: CardId) -> CardView {
        let c = card(id);
        CardView {
            card: id,
            glyph: c.glyph,
            stones: c.stones.as_slice(),
        }
    }
}

fn cards(ids: &[CardId]) -> Vec<CardView> {
    ids.iter().map(|&id| CardView::new(id)).collect()
}

#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct GodView {
    pub god: God,
    pub number: u8,
    pub allows: Allowed,
    pub owner: Option<Seat>,
    /// Set aside this round (2 players).
    pub set_aside: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct PairView {
    /// 1-based, as in `pair N`.
    pub number: u8,
    /// `None` once taken.
    pub cards: Option<Vec<CardView>>,
    pub taken_by: Option<Seat>,
}

/// Points anyone can count during the game: Pyramid, Obelisk, and the glyphs in them.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct PublicScore {
    pub pyramid: PyramidScore,
    pub obelisk: u8,
    pub glyphs: u8,
    pub total: u16,
}

#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct SeatView {
    /// Points: the public ones (Pyramid, Obelisk, glyphs in them) during the game, the full
    /// score at the end.
    #[serde(flatten)]
    pub summary: SeatSummary,
    pub god: Option<God>,
    pub hand_size: u8,
    /// Only for the seat itself.
    pub hand: Option<Vec<CardView>>,
    /// Rows bottom (`a`) to top (`d`), 4/3/2/1 entries; the bottom row's cards are packed to
    /// the left (it floats until complete).
    pub pyramid: Vec<Vec<Option<CardView>>>,
    /// Bottom card first; each covers the top half of the previous one.
    pub obelisk: Vec<CardView>,
    pub tomb_size: u8,
    /// Only for the seat itself, and for everyone at the end.
    pub tomb: Option<Vec<CardView>>,
    pub public_score: PublicScore,
    /// Obelisk cards showing each colour: its columns, keyed by colour name.
    #[serde(with = "crate::data::per_colour")]
    #[ts(type = "Record<Colour, number>")]
    pub obelisk_stages: [u8; 5],
    /// The pair this seat took from the quarry this round (none yet: empty). Public: at the
    /// table everyone saw it taken; what became of each card afterwards is not said.
    pub took: Vec<CardView>,
    /// The cards this seat discarded face up at the latest round end.
    pub discarded: Vec<CardView>,
    /// Full score, at the end.
    pub final_score: Option<Score>,
    /// How the Tomb and the glyphs scored, at the end.
    pub detail: Option<ScoreDetail>,
}

/// The parts of a final score a player cannot read off the public edifices.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct ScoreDetail {
    /// Tomb stones per colour, keyed by colour name.
    #[serde(with = "crate::data::per_colour")]
    #[ts(type = "Record<Colour, number>")]
    pub tomb_stones: [u8; 5],
    /// Colours in which this Tomb holds strictly more stones than every other one (5 points
    /// each; a tie for the most wins nothing).
    pub tomb_majorities: Vec<Colour>,
    /// Colours in which this Tomb ties another for the most stones (no points).
    pub tomb_ties: Vec<Colour>,
    /// Glyph points in the Pyramid, the Obelisk and the Tomb.
    pub glyphs: EdificePoints,
}

#[derive(Copy, Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct EdificePoints {
    pub pyramid: u8,
    pub obelisk: u8,
    pub tomb: u8,
}

/// The building turn in progress.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct TurnView {
    pub seat: Seat,
    pub god: God,
    pub obelisk_built: bool,
    pub tomb_built: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct View {
    /// The stage is the round, 1-based.
    #[serde(flatten)]
    pub envelope: Envelope<SeatView, Phase>,
    /// Whose view this is (`None`: a spectator).
    pub seat: Option<Seat>,
    /// The tiles used at this table, in number order.
    pub gods: Vec<GodView>,
    pub quarry: Vec<PairView>,
    pub deck_size: u8,
    pub discard: Vec<CardView>,
    pub turn: Option<TurnView>,
}

impl View {
    /// Every card the view shows, in no particular order: the harness checks it against
    /// what the viewer may see. A new field holding cards must be added here.
    pub fn card_ids(&self) -> Vec<CardId> {
        let mut ids: Vec<CardId> = self.discard.iter().map(|c| c.card).collect();
        for pair in &self.quarry {
            ids.extend(pair.cards.iter().flatten().map(|c| c.card));
        }
        for t in &self.envelope.seats {
            ids.extend(t.hand.iter().flatten().map(|c| c.card));
            ids.extend(t.pyramid.iter().flatten().flatten().map(|c| c.card));
            ids.extend(t.obelisk.iter().map(|c| c.card));
            ids.extend(t.tomb.iter().flatten().map(|c| c.card));
            ids.extend(t.took.iter().map(|c| c.card));
            ids.extend(t.discarded.iter().map(|c| c.card));
        }
        ids
    }

    pub(crate) fn new(game: &Game, viewer: Option<Seat>) -> View {
        let over = game.phase() == Phase::Over;
        let n = game.seats();
        let gods = God::ALL[..game.gods_in_game() as usize]
            .iter()
            .map(|&god| GodView {
                god,
                number: god.number(),
                allows: god.allows(n),
                owner: game.god_owner(god),
                set_aside: game.set_aside() == Some(god),
            })
            .collect();
        let quarry = game
            .quarry()
            .enumerate()
            .map(|(i, pair)| PairView {
                number: i as u8 + 1,
                cards: pair.map(|p| cards(&p)),
                taken_by: game.pair_owner(i),
            })
            .collect();
        let discard: Vec<CardId> = game.discarded().collect();
        let tombs: Vec<[u8; 5]> = (0..n)
            .map(|s| game.necropolis(Seat(s)).tomb.stones())
            .collect();
        let seats = (0..n)
            .map(|s| {
                let seat = Seat(s);
                let own = viewer == Some(seat);
                let nec = game.necropolis(seat);
                let pyramid = (0..4u8)
                    .map(|row| {
                        (0..ROW_SIZES[row as usize])
                            .map(|i| nec.pyramid.card_at(row, i).map(CardView::new))
                            .collect()
                    })
                    .collect();
                let pyr = nec.pyramid.score();
                let glyphs = nec.pyramid.glyph_points() + nec.obelisk.glyph_points();
                let obelisk = nec.obelisk.score();
                let public = pyr.total as u16 + obelisk as u16 + glyphs as u16;
                let final_score = over.then(|| game.score(seat));
                SeatView {
                    summary: SeatSummary::new(
                        seat,
                        i32::from(final_score.as_ref().map_or(public, |sc| sc.total)),
                    ),
                    god: game.god_of(seat),
                    hand_size: game.hand(seat).len() as u8,
                    hand: own.then(|| cards(game.hand(seat))),
                    pyramid,
                    obelisk: cards(nec.obelisk.cards()),
                    tomb_size: nec.tomb.len() as u8,
                    tomb: (own || over).then(|| cards(nec.tomb.cards())),
                    public_score: PublicScore {
                        pyramid: pyr,
                        obelisk,
                        glyphs,
                        total: public,
                    },
                    obelisk_stages: Colour::ALL.map(|c| nec.obelisk.stages_with(c)),
                    took: game.took(seat).map_or_else(Vec::new, |pair| cards(&pair)),
                    discarded: game.round_discards(seat).map(CardView::new).collect(),
                    final_score,
                    detail: over.then(|| {
                        let won = tomb_majorities(&tombs, s as usize);
                        let tied = tomb_ties(&tombs, s as usize);
                        ScoreDetail {
                            tomb_stones: tombs[s as usize],
                            tomb_majorities: Colour::ALL
                                .into_iter()
                                .filter(|c| won[c.index()])
                                .collect(),
                            tomb_ties: Colour::ALL
                                .into_iter()
                                .filter(|c| tied[c.index()])
                                .collect(),
                            glyphs: EdificePoints {
                                pyramid: nec.pyramid.glyph_points(),
                                obelisk: nec.obelisk.glyph_points(),
                                tomb: nec.tomb.glyph_points(),
                            },
                        }
                    }),
                }
            })
            .collect();
        let turn = game
            .builder()
            .map(|(seat, obelisk_built, tomb_built)| TurnView {
                seat,
                god: game.god_of(seat).expect("a builder has a god"),
                obelisk_built,
                tomb_built,
            });
        View {
            envelope: Envelope::of(game, seats, game.phase(), game.first_player()),
            seat: viewer,
            gods,
            quarry,
            deck_size: game.deck_len() as u8,
            discard: cards(&discard),
            turn,
        }
    }
}

impl Game {
    /// The cards `viewer` may see now, each as many times as its view shows it: a card taken
    /// this round is shown among the takes and also where it went, if that is seen.
    pub fn visible_cards(&self, viewer: Option<Seat>) -> Vec<CardId> {
        let mut out: Vec<CardId> = self
            .quarry
            .iter()
            .flatten()
            .copied()
            .filter(|&c| c != crate::necropolis::NONE)
            .collect();
        out.extend(self.discarded());
        for s in 0..self.n as usize {
            let nec = &self.necropolis[s];
            out.extend(nec.pyramid.cards());
            out.extend(nec.obelisk.cards());
            if viewer == Some(Seat(s as u8)) || self.phase == Phase::Over {
                out.extend(nec.tomb.cards());
            }
            if viewer == Some(Seat(s as u8)) {
                out.extend(self.hands[s].as_slice());
            }
            // Public, as everyone saw them taken and discarded (RULES.md).
            out.extend(self.took(Seat(s as u8)).into_iter().flatten());
            out.extend(self.round_discards(Seat(s as u8)));
        }
        out.sort_unstable();
        out
    }
}
