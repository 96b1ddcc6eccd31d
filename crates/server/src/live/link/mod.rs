//! The internal link: how an instance serves a player whose game another instance runs.
//!
//! The instance the player reached keeps a *remote room* for the game: it takes the same
//! commands as a room (`RoomCmd`), so the WebSocket and HTTP code do not know the difference,
//! and passes them to the owner, which runs them on its room for a connection of its own per
//! player. What the room says to that connection comes back in order and is passed on as it
//! is (`ServerMsg::Relayed`): the owner computes every view for the player's own seat, so
//! nothing hidden is exposed by the relay.
//!
//! Every game one instance forwards to another goes over one internal WebSocket between the
//! two (issue 53, item 6: one per game cost a socket, a task pair and buffers each), its
//! frames tagged with the game (`frames`). The link is opened when a game first needs it,
//! closed once no game has used it for a while, and opened anew after a failure (`peer`).
//! The owner serves every game of the link (`serve`), each checked as before: a game not
//! run here (any more) is answered `closed`, so a stale owner still sends the forwarder's
//! followers elsewhere.
//!
//! When the link breaks (the owner died, drained or let the game go), every follower is told
//! it no longer follows (`lagging`) and subscribes again with its last event: that
//! subscription finds the game's owner anew (this instance, once the old owner is dead), and
//! the moves it missed come from the database, so none is skipped.
mod forward;
mod frames;
mod peer;
mod serve;

pub use forward::remote_room;
pub use peer::Peers;
pub use serve::accept;
