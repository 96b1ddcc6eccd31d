//! The state behind a seat's view (`ViewSampler`, issue 50): what the page of a game the
//! server runs plays its previews and local analyses on.
//!
//! The view hides the deck's order, the other seats' hands and, until the end, their Tombs
//! (view.rs); the seat's own hand and Tomb it shows. Everything else is read back: the
//! edifices card by card (a pyramid row by row, each card placed where the view shows it,
//! so a view no game could give is refused), the gods, the quarry, the takes and discards.
//! The cards whose place the view does not give are shuffled into the hidden places (the
//! deck's rest, then each other seat's hand and Tomb), as [`Game::determinized`] does from a
//! true state. Like it, the sampler ignores that a pair taken this round is public: a card of
//! another seat's take may land anywhere hidden, not only in that seat's hand or Tomb.
use crate::data::{CARD_COUNT, CardId};
use crate::moves::MAX_HAND;
use crate::necropolis::{MAX_PILE, NONE, Necropolis, Place, ROW_SIZES, Stack};
use crate::state::{BUILT_OBELISK, BUILT_TOMB, Game, MAX_PLAYERS, MIN_PLAYERS, Phase, ROUNDS};
use pyramidion_core::{GameRng, PlayerCount, SampleError, Seat, ViewJson, ViewPart, ViewSampler};

fn bad(message: impl Into<String>) -> SampleError {
    SampleError::bad_view(message)
}

const PHASES: [(&str, Phase); 6] = [
    ("choose_god", Phase::ChooseGod),
    ("choose_pair", Phase::ChoosePair),
    ("build_pyramid", Phase::BuildPyramid),
    ("build_more", Phase::BuildMore),
    ("discard", Phase::Discard),
    ("over", Phase::Over),
];

/// The cards of a list of card views (each's id under `"card"`), at most `max`.
fn cards(list: ViewPart, max: usize) -> Result<Vec<CardId>, SampleError> {
    let mut out = Vec::new();
    for c in list.items()? {
        if out.len() == max {
            return Err(bad("too many cards"));
        }
        out.push(card_id(c)?);
    }
    Ok(out)
}

/// A seat whose value is `null` for none.
fn seat_or_none(p: Option<ViewPart>, n: u8) -> Result<u8, SampleError> {
    match p {
        None => Ok(NONE),
        Some(s) => {
            let s: u8 = s.num()?;
            if s >= n {
                return Err(bad("no such seat"));
            }
            Ok(s)
        }
    }
}

/// Cards whose place the view gives, each at most once.
struct Located(u128);

impl Located {
    fn mark(&mut self, ids: &[CardId]) -> Result<(), SampleError> {
        for &id in ids {
            if self.0 >> id & 1 == 1 {
                return Err(bad("a card in two places"));
            }
            self.0 |= 1 << id;
        }
        Ok(())
    }
}

/// A seat's necropolis as the view shows it (its Tomb when shown), its cards marked.
fn necropolis(
    seat: ViewPart,
    tomb_shown: bool,
    located: &mut Located,
) -> Result<Necropolis, SampleError> {
    let mut nec = Necropolis::default();
    let rows: Vec<ViewPart> = seat.get("pyramid")?.items()?.collect();
    if rows.len() != ROW_SIZES.len() {
        return Err(bad("four pyramid rows expected"));
    }
    // Row by row, left to right: the order in which every place the view shows is open (a
    // bottom row extends to the right, a higher row next to its cards).
    for (row, cells) in rows.into_iter().enumerate() {
        for (index, cell) in cells.items()?.enumerate() {
            let Some(c) = cell.non_null() else { continue };
            let id = card_id(c)?;
            located.mark(&[id])?;
            let place = Place::new(row as u8, index as u8 + 1);
            nec.pyramid
                .place(id, place)
                .map_err(|e| bad(e.to_string()))?;
        }
    }
    let obelisk = cards(seat.get("obelisk")?, MAX_PILE)?;
    located.mark(&obelisk)?;
    for id in obelisk {
        nec.obelisk.push(id);
    }
    if tomb_shown {
        let tomb = cards(seat.get("tomb")?, MAX_PILE)?;
        located.mark(&tomb)?;
        for id in tomb {
            nec.tomb.push(id);
        }
    }
    Ok(nec)
}

/// A card view's id.
fn card_id(c: ViewPart) -> Result<CardId, SampleError> {
    let id: CardId = c.get("card")?.num()?;
    if usize::from(id) >= CARD_COUNT {
        return Err(bad("no such card"));
    }
    Ok(id)
}

/// A set of card ids (as `Game` keeps discards).
fn card_set(ids: &[CardId]) -> u128 {
    ids.iter().fold(0, |set, &id| set | 1 << id)
}

impl ViewSampler for Game {
    fn sample_from_view(
        view: &ViewJson,
        seat: Seat,
        rng: &mut GameRng,
    ) -> Result<Self, SampleError> {
        let v = ViewPart(view);
        let seat_parts: Vec<ViewPart> = v.get("seats")?.items()?.collect();
        let n = seat_parts.len() as u8;
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&n) || usize::from(n) != seat_parts.len() {
            return Err(bad("Pyramids is for 2 to 5 players"));
        }
        let me = seat.index();
        if me >= usize::from(n) {
            return Err(bad("no such seat"));
        }
        let round: u8 = v.get("stage")?.num()?;
        if round == 0 || round > ROUNDS {
            return Err(bad("no such round"));
        }
        let phase = v.get("phase")?.pick(&PHASES)?;
        let over = phase == Phase::Over;
        let first: u8 = v.get("first_player")?.num()?;
        if first >= n {
            return Err(bad("no such first player"));
        }
        let current = v.to_move(usize::from(n), first)?;
        let mut located = Located(0);

        let mut necropolis_of = [Necropolis::default(); 5];
        let mut hands = [Stack::new(); 5];
        let mut hand_sizes = [0usize; 5];
        let mut took = [[NONE; 2]; 5];
        let mut round_discards = [0u128; 5];
        for (s, part) in seat_parts.iter().enumerate() {
            necropolis_of[s] = necropolis(*part, s == me || over, &mut located)?;
            let hand_size: usize = part.get("hand_size")?.num()?;
            if hand_size > usize::from(MAX_HAND) {
                return Err(bad("too many cards in hand"));
            }
            hand_sizes[s] = hand_size;
            if s == me {
                let hand = cards(part.get("hand")?, usize::from(MAX_HAND))?;
                if hand.len() != hand_size {
                    return Err(bad("the hand does not match its size"));
                }
                located.mark(&hand)?;
                for id in hand {
                    hands[s].push(id);
                }
            }
            let tomb_size: usize = part.get("tomb_size")?.num()?;
            let shown = s == me || over;
            if tomb_size > MAX_PILE || (shown && necropolis_of[s].tomb.len() != tomb_size) {
                return Err(bad("the Tomb does not match its size"));
            }
            // A take and a round's discards repeat cards shown (or hidden) elsewhere.
            match cards(part.get("took")?, 2)?[..] {
                [] => {}
                [x, y] => took[s] = [x, y],
                _ => return Err(bad("a take is a pair")),
            }
            round_discards[s] = card_set(&cards(part.get("discarded")?, usize::from(MAX_HAND))?);
        }
        let discard = cards(v.get("discard")?, CARD_COUNT)?;
        located.mark(&discard)?;

        let mut quarry = [[NONE; 2]; 5];
        let mut pair_owner = [NONE; 5];
        let pairs: Vec<ViewPart> = v.get("quarry")?.items()?.collect();
        if pairs.len() != usize::from(n) {
            return Err(bad("a pair per seat expected"));
        }
        for (i, pair) in pairs.into_iter().enumerate() {
            if let Some(c) = pair.opt("cards") {
                match cards(c, 2)?[..] {
                    [x, y] => quarry[i] = [x, y],
                    _ => return Err(bad("a pair is two cards")),
                }
                located.mark(&quarry[i])?;
            }
            pair_owner[i] = seat_or_none(pair.opt("taken_by"), n)?;
        }

        let mut god_owner = [NONE; 5];
        let mut seat_god = [NONE; 5];
        let mut set_aside = NONE;
        let gods: Vec<ViewPart> = v.get("gods")?.items()?.collect();
        if gods.len() != if n <= 3 { 4 } else { 5 } {
            return Err(bad("the gods do not match the table"));
        }
        for (g, god) in gods.into_iter().enumerate() {
            let owner = seat_or_none(god.opt("owner"), n)?;
            if owner != NONE {
                if seat_god[usize::from(owner)] != NONE {
                    return Err(bad("a seat with two gods"));
                }
                god_owner[g] = owner;
                seat_god[usize::from(owner)] = g as u8;
            }
            if god.get("set_aside")?.bool()? {
                set_aside = g as u8;
            }
        }
        if (n == 2) != (set_aside != NONE) {
            return Err(bad("a god is set aside at a table of two only"));
        }
        let mut order = [NONE; 5];
        let mut picks = 0;
        for &owner in god_owner.iter().filter(|&&o| o != NONE) {
            order[usize::from(picks)] = owner;
            picks += 1;
        }
        let building = matches!(
            phase,
            Phase::ChoosePair | Phase::BuildPyramid | Phase::BuildMore
        );
        let (turn, built) = match v.opt("turn") {
            Some(t) if building && picks == n => {
                let s: u8 = t.get("seat")?.num()?;
                let turn = order[..usize::from(n)]
                    .iter()
                    .position(|&o| o == s)
                    .ok_or_else(|| bad("a builder without a god"))?;
                let mut built = 0;
                if t.get("obelisk_built")?.bool()? {
                    built |= BUILT_OBELISK;
                }
                if t.get("tomb_built")?.bool()? {
                    built |= BUILT_TOMB;
                }
                (turn as u8, built)
            }
            None if !building => (if phase == Phase::ChooseGod { 0 } else { n }, 0),
            _ => return Err(bad("a building turn without its builder")),
        };
        let deck_size: usize = v.get("deck_size")?.num()?;
        if deck_size > CARD_COUNT {
            return Err(bad("too many cards in the deck"));
        }
        let mut game = Game {
            options: PlayerCount { players: n },
            n,
            rng: rng.fork(),
            ply: 0,
            round: round - 1,
            first,
            phase,
            deck: [0; CARD_COUNT],
            deck_pos: (CARD_COUNT - deck_size) as u8,
            quarry,
            pair_owner,
            god_owner,
            seat_god,
            set_aside,
            picks,
            order,
            turn,
            built,
            cursor: (current + n - first) % n,
            discard: card_set(&discard),
            took,
            round_discards,
            hands,
            necropolis: necropolis_of,
        };
        deal_hidden(&mut game, me, &hand_sizes, &seat_parts, located, rng)?;
        game.ply = game.ply_lower_bound();
        Ok(game)
    }

    fn samples_views() -> bool {
        true
    }
}

/// The cards whose place the view does not give, shuffled into the hidden places in the order
/// [`Game::determinized`] fills them: the deck's rest, then each other seat's hand and, before
/// the end, its Tomb. The deck's dealt part holds every other card, so that the deck stays a
/// permutation of the box.
fn deal_hidden(
    game: &mut Game,
    me: usize,
    hand_sizes: &[usize; 5],
    seats: &[ViewPart],
    located: Located,
    rng: &mut GameRng,
) -> Result<(), SampleError> {
    let tombs_hidden = game.phase != Phase::Over;
    let mut pool: Vec<CardId> = (0..CARD_COUNT as u8)
        .filter(|&id| located.0 >> id & 1 == 0)
        .collect();
    let deck_pos = usize::from(game.deck_pos);
    let mut wanted = CARD_COUNT - deck_pos;
    for s in (0..usize::from(game.n)).filter(|&s| s != me) {
        wanted += hand_sizes[s];
        if tombs_hidden {
            wanted += seats[s].get("tomb_size")?.num::<usize>()?;
        }
    }
    if wanted != pool.len() {
        return Err(bad(
            "the hidden places do not hold the cards nobody has seen",
        ));
    }
    rng.shuffle(&mut pool);
    let (in_deck, elsewhere) = pool.split_at(CARD_COUNT - deck_pos);
    let remaining = card_set(in_deck);
    let dealt = (0..CARD_COUNT as u8).filter(|&id| remaining >> id & 1 == 0);
    for (slot, id) in game
        .deck
        .iter_mut()
        .zip(dealt.chain(in_deck.iter().copied()))
    {
        *slot = id;
    }
    let mut cards = elsewhere.iter().copied();
    for s in (0..usize::from(game.n)).filter(|&s| s != me) {
        for id in cards.by_ref().take(hand_sizes[s]) {
            game.hands[s].push(id);
        }
        if tombs_hidden {
            let size: usize = seats[s].get("tomb_size")?.num()?;
            for id in cards.by_ref().take(size) {
                game.necropolis[s].tomb.push(id);
            }
        }
    }
    Ok(())
}

impl Game {
    /// The view does not say how many moves were played and no rule reads the count: a lower
    /// bound, a move per card built or discarded and per god and pair taken this round.
    fn ply_lower_bound(&self) -> u32 {
        let built: usize = self.necropolis[..usize::from(self.n)]
            .iter()
            .map(|nec| usize::from(nec.pyramid.len()) + nec.obelisk.len() + nec.tomb.len())
            .sum();
        let taken = self.pair_owner.iter().filter(|&&o| o != NONE).count();
        (built + self.discard.count_ones() as usize + usize::from(self.picks) + taken) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pyramidion_core::{Rules, ToMove};
    use pyramidion_testkit::Simulate;

    /// A state sampled from a view is a whole game, not only its view: every card in one
    /// place, the deck where the round says, the gods and hands consistent (the harness'
    /// invariants), and it plays on to the end keeping them, whatever is drawn.
    #[test]
    fn a_sampled_state_keeps_the_invariants_and_plays_to_the_end() {
        let mut rng = GameRng::from_seed(7);
        for deal in 0..8u64 {
            let players = 2 + (deal % 4) as u8;
            let mut game = Game::new(&PlayerCount { players }, deal).unwrap();
            let mut moves = Vec::new();
            while let ToMove::Seat(mover) = game.to_move() {
                let view = serde_json::to_value(game.view(Some(mover))).unwrap();
                let mut sampled =
                    Game::sample_from_view(&view, mover, &mut rng.fork()).expect("a view");
                sampled.check_invariants().unwrap();
                let mut tail = Vec::new();
                while sampled.to_move() != ToMove::Over {
                    sampled.legal_moves(&mut tail);
                    let m = tail[rng.below(tail.len() as u32) as usize];
                    sampled.play_unchecked(&m);
                    sampled.check_invariants().unwrap();
                }
                game.legal_moves(&mut moves);
                let m = moves[rng.below(moves.len() as u32) as usize];
                game.play_unchecked(&m);
            }
        }
    }

    /// The seat's own hand and Tomb come back as they were; the other seats' hidden cards
    /// vary with the draw (they are drawn, not copied from anything the page was not sent).
    #[test]
    fn hidden_cards_are_drawn_and_the_seats_own_are_kept() {
        let mut game = Game::new(&PlayerCount { players: 3 }, 11).unwrap();
        let mut moves = Vec::new();
        let mut rng = GameRng::from_seed(3);
        while game.round() < 4 {
            game.legal_moves(&mut moves);
            let m = moves[rng.below(moves.len() as u32) as usize];
            game.play_unchecked(&m);
        }
        let me = Seat(1);
        let view = serde_json::to_value(game.view(Some(me))).unwrap();
        let mut others = std::collections::BTreeSet::new();
        for seed in 0..20 {
            let s = Game::sample_from_view(&view, me, &mut GameRng::from_seed(seed)).unwrap();
            assert_eq!(s.hand(me), game.hand(me));
            assert_eq!(
                s.necropolis(me).tomb.cards(),
                game.necropolis(me).tomb.cards()
            );
            others.insert((
                s.hand(Seat(0)).to_vec(),
                s.necropolis(Seat(2)).tomb.cards().to_vec(),
            ));
        }
        assert!(
            others.len() > 10,
            "{} distinct draws of the hidden cards",
            others.len()
        );
    }

    #[test]
    fn a_view_with_a_card_in_two_places_is_refused() {
        let game = Game::new(&PlayerCount { players: 2 }, 5).unwrap();
        let mut view = serde_json::to_value(game.view(Some(Seat(0)))).unwrap();
        let shown = view["seats"][0]["hand"][0].clone();
        view["quarry"][0]["cards"][0] = shown;
        let err = Game::sample_from_view(&view, Seat(0), &mut GameRng::from_seed(1)).unwrap_err();
        assert_eq!(
            (err.code, err.message.as_str()),
            ("bad_view", "a card in two places")
        );
    }
}
