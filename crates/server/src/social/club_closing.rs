//! Telling who is concerned that a deleted club's tables and tournaments closed with it
//! (`crate::social::club_owner_store::ClubClosed`): each closed table reaches the players
//! seated there and the former members' lobbies (the only ones that listed it) as a `table`
//! message, now `abandoned`; each cancelled tournament reaches the tournament pages (the
//! lobby's watchers) as a `tournament` message, `cancelled`.
use crate::AppState;
use crate::db::rows::SeatKind;
use crate::error::ApiResult;
use crate::live::protocol::ServerMsg;
use crate::live::stored_game::load;
use crate::live::tournament_msg::TournamentMsg;
use crate::social::club_owner_store::ClubClosed;

/// Tells of `closed`; `members`: the club's members as they were before it was deleted.
pub async fn tell(state: &AppState, closed: &ClubClosed, members: &[String]) -> ApiResult<()> {
    for id in &closed.tables {
        let (row, seats) = load(&state.live, id).await?;
        let table = Box::new(crate::http::api::table_of(state, &row, &seats, None).await?);
        let msg = ServerMsg::Table { table };
        let seated = seats.iter().filter_map(|s| match s {
            SeatKind::Human(u) => Some(u),
            _ => None,
        });
        let mut told: Vec<&String> = Vec::new();
        for user in seated.chain(members) {
            if !told.contains(&user) {
                told.push(user);
                state.hub.to_user(user, &msg);
            }
        }
    }
    for id in &closed.tournaments {
        state
            .hub
            .to_lobby(&ServerMsg::Tournament(Box::new(TournamentMsg {
                tournament: id.clone(),
                event: "finished",
                status: "cancelled",
                round: None,
                game: None,
                standings: Vec::new(),
            })));
    }
    Ok(())
}
