//! A bounded queue whose slots hold one pointer: a room's command queue and a connection's
//! message queue (`crate::live::room_cmd::RoomCmd`, `crate::live::protocol::ServerMsg`).
//!
//! Why: tokio's `mpsc` keeps its slots in blocks of 32, each slot as large as the item, and
//! every channel holds at least one block for as long as it lives, however idle. A
//! `RoomCmd` is ~100 bytes and a `ServerMsg` ~128, so an idle room and an idle socket each
//! held ~3.5 KiB of empty slots: a large share of a live game's memory
//! (docs/performance.md, "Memory per live game"). Boxed, a block is ~0.3 KiB; the one
//! allocation per message is small beside the message's own (a patch, a move's text).
//!
//! The API is `mpsc`'s, items going in and out unboxed.
use tokio::sync::mpsc;
pub use tokio::sync::mpsc::error::{SendError, TryRecvError, TrySendError};

/// A bounded queue of `capacity` items.
pub fn channel<T>(capacity: usize) -> (Sender<T>, Receiver<T>) {
    let (tx, rx) = mpsc::channel(capacity);
    (Sender(tx), Receiver(rx))
}

pub struct Sender<T>(mpsc::Sender<Box<T>>);

// Derived `Clone` would ask `T: Clone`.
impl<T> Clone for Sender<T> {
    fn clone(&self) -> Self {
        Sender(self.0.clone())
    }
}

impl<T> std::fmt::Debug for Sender<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Sender").finish()
    }
}

impl<T> Sender<T> {
    /// Waits for a free slot; gives the item back if the receiver is gone.
    pub async fn send(&self, item: T) -> Result<(), SendError<T>> {
        self.0
            .send(Box::new(item))
            .await
            .map_err(|SendError(b)| SendError(*b))
    }

    /// Queues the item at once, or gives it back (queue full or receiver gone).
    pub fn try_send(&self, item: T) -> Result<(), TrySendError<T>> {
        self.0.try_send(Box::new(item)).map_err(|e| match e {
            TrySendError::Full(b) => TrySendError::Full(*b),
            TrySendError::Closed(b) => TrySendError::Closed(*b),
        })
    }

    pub fn is_closed(&self) -> bool {
        self.0.is_closed()
    }

    /// Resolves once the receiver is gone.
    pub async fn closed(&self) {
        self.0.closed().await
    }

    pub fn same_channel(&self, other: &Self) -> bool {
        self.0.same_channel(&other.0)
    }
}

pub struct Receiver<T>(mpsc::Receiver<Box<T>>);

impl<T> Receiver<T> {
    pub async fn recv(&mut self) -> Option<T> {
        self.0.recv().await.map(|b| *b)
    }

    pub fn try_recv(&mut self) -> Result<T, TryRecvError> {
        self.0.try_recv().map(|b| *b)
    }

    /// No more items are taken; those queued can still be received.
    pub fn close(&mut self) {
        self.0.close()
    }
}

#[cfg(test)]
mod tests {
    #[tokio::test]
    async fn items_go_through_in_order_and_come_back_when_refused() {
        let (tx, mut rx) = super::channel::<String>(1);
        tx.send("a".into()).await.unwrap();
        match tx.try_send("b".into()) {
            Err(super::TrySendError::Full(b)) => assert_eq!(b, "b"),
            other => panic!("expected a full queue, got {other:?}"),
        }
        assert_eq!(rx.recv().await.as_deref(), Some("a"));
        tx.try_send("c".into()).unwrap();
        rx.close();
        assert_eq!(rx.try_recv().as_deref(), Ok("c"));
        assert!(tx.is_closed());
        assert!(tx.same_channel(&tx.clone()));
        let super::SendError(back) = tx.send("d".into()).await.unwrap_err();
        assert_eq!(back, "d");
    }
}
