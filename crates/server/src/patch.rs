//! Lean messages: after a subscription's whole `state`, each further state of a game goes to
//! a subscriber as a `patch` of the view it last got (RFC 6902, by the `json-patch` crate),
//! not as a whole view, which grows with the game (several KiB) while a move changes a few
//! of its fields. A view is computed for the subscriber's own seat, as a whole state's is, so
//! a patch carries nothing the seat may not see; subscribers of one seat share its patch.
use crate::protocol::ServerMsg;
use serde_json::value::RawValue;

/// The view patches of one publication, by seat.
#[derive(Default)]
pub struct PerSeat(Vec<(Option<u8>, json_patch::Patch)>);

impl PerSeat {
    /// `state` as a patch from the state `from`, whose view (for the same seat) `before`
    /// gives; `state` itself when it is not a `state` or a view does not parse.
    pub fn patch(
        &mut self,
        state: ServerMsg,
        from: u64,
        before: impl FnOnce() -> Box<RawValue>,
    ) -> ServerMsg {
        let ServerMsg::State {
            game,
            state_id,
            event,
            seat,
            to_move,
            last_move,
            missed: _,
            view,
            legal,
            finished,
            outcome,
            clock,
            bots,
            resigned,
            ending,
        } = state
        else {
            return state;
        };
        let cached = self
            .0
            .iter()
            .find(|(s, _)| *s == seat)
            .map(|(_, p)| p.clone());
        let view_patch = match cached {
            Some(p) => p,
            None => {
                let parsed = serde_json::from_str::<serde_json::Value>(before().get())
                    .and_then(|old| Ok((old, serde_json::from_str(view.get())?)));
                let Ok((old, new)) = parsed else {
                    return ServerMsg::State {
                        game,
                        state_id,
                        event,
                        seat,
                        to_move,
                        last_move,
                        missed: Vec::new(),
                        view,
                        legal,
                        finished,
                        outcome,
                        clock,
                        bots,
                        resigned,
                        ending,
                    };
                };
                let p = json_patch::diff(&old, &new);
                self.0.push((seat, p.clone()));
                p
            }
        };
        ServerMsg::Patch {
            game,
            state_id,
            event,
            from,
            seat,
            to_move,
            last_move,
            view_patch,
            legal,
            finished,
            outcome,
            clock,
            bots,
            resigned,
            ending,
        }
    }
}
