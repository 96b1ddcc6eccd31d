//! A table's chat inside its room (see `crate::live::chat`): checked, limited per user, stored, then
//! told to whoever may read it. A finished game takes no more chat (`game_over`): its chat is
//! part of its record, shown with its replay.
use super::Room;
use crate::db::chat_message::ChatMessage;
use crate::error_code::ApiErrorCode;
use crate::live::chat::{CHAT_BURST, CHAT_EVERY_SECONDS};
use crate::live::protocol::ServerMsg;
use crate::live::room_cmd::ChatCmd;
use crate::rate_limits::{Bucket, Rate};

impl Room {
    pub(super) async fn chat(&mut self, cmd: ChatCmd) {
        let error = |code: ApiErrorCode, message: String| {
            ServerMsg::error(code, message, Some(self.id.as_str()))
        };
        if let Err((code, message)) =
            crate::live::chat::check(cmd.text.as_deref(), cmd.phrase.as_deref())
        {
            return self.reply(cmd.conn, error(code, message));
        }
        if self.to_move().is_none() {
            let message = "the game is over: its chat is closed".to_string();
            return self.reply(cmd.conn, error(ApiErrorCode::GameOver, message));
        }
        let rate = Rate {
            per_second: 1.0 / CHAT_EVERY_SECONDS,
            burst: CHAT_BURST,
        };
        let allowed = self
            .chat_limits
            .entry(cmd.user.clone())
            .or_insert_with(|| Bucket::new(rate))
            .allow();
        if !allowed {
            let message = format!(
                "at most {CHAT_BURST} messages at once, then one every {CHAT_EVERY_SECONDS} s"
            );
            return self.reply(cmd.conn, error(ApiErrorCode::ChatRateLimited, message));
        }
        let seat = self.seat_of(&cmd.user).first().copied();
        let message = ChatMessage {
            id: crate::secret::random_hex(8),
            game: self.id.clone(),
            channel: if seat.is_some() {
                "players"
            } else {
                "spectators"
            },
            user: cmd.user,
            name: cmd.name,
            seat,
            text: cmd.text.map(|t| t.trim().to_string()),
            phrase: cmd.phrase,
            ply: self.moves.len() as u64,
            at: self.wall.now_ms(),
        };
        if let Err(e) = self.store.add_chat(&message).await {
            tracing::error!(game = %self.id, error = %e, "cannot store a chat message");
            let said = "the message could not be saved; it was not sent".to_string();
            return self.reply(cmd.conn, error(ApiErrorCode::StorageFailing, said));
        }
        let players = message.channel == "players";
        for s in &self.subscribers {
            // Spectators read both channels; players only their own.
            if players || s.seat.is_none() {
                let _ = s.out.try_send(ServerMsg::Chat {
                    game: self.id.clone(),
                    message: Box::new(message.clone()),
                });
            }
        }
    }
}
