//! The registry of running rooms: one per game that someone follows or that is being played.
use crate::AppState;
use crate::room::{Room, RoomHandle};
use anyhow::{Result, bail};
use pyramidion_core::GameKind;
use pyramidion_core::record::Record;
use pyramidion_games::AnyGame;
use std::collections::HashMap;
use tokio::sync::Mutex;

#[derive(Default)]
pub struct Rooms {
    map: Mutex<HashMap<String, RoomHandle>>,
}

impl Rooms {
    /// The room of a started game, rebuilding it from its record if it is not running.
    pub async fn get(&self, state: &AppState, id: &str) -> Result<Option<RoomHandle>> {
        let mut map = self.map.lock().await;
        if let Some(h) = map.get(id)
            && !h.tx.is_closed()
        {
            return Ok(Some(h.clone()));
        }
        let Some(row) = state.store.game(id).await? else {
            return Ok(None);
        };
        if row.status == "open" {
            return Ok(None);
        }
        let kind: GameKind = row.kind.parse()?;
        let moves = state.store.moves(id).await?;
        let record = Record {
            game: kind,
            options: serde_json::from_str(&row.options)?,
            seed: row.seed,
            result: None,
            moves: moves.clone(),
            move_lines: Vec::new(),
        };
        let game = match AnyGame::from_record(&record) {
            Ok(g) => g,
            Err(e) => bail!("game {id} does not replay from its record: {e}"),
        };
        let seats = state.store.seats(id).await?;
        let handle = Room::spawn(
            id.to_string(),
            game,
            moves,
            seats,
            row.seed,
            row.move_seconds,
            state.store.clone(),
            state.metrics.clone(),
        );
        map.insert(id.to_string(), handle.clone());
        Ok(Some(handle))
    }

    /// Starts every unfinished game after a restart, so bots and clocks resume at once.
    pub async fn resume_all(&self, state: &AppState) -> Result<usize> {
        let live = state.store.games_with_status("live").await?;
        for g in &live {
            if let Err(e) = self.get(state, &g.id).await {
                tracing::error!(game = %g.id, error = %e, "cannot resume game");
            }
        }
        Ok(live.len())
    }
}
