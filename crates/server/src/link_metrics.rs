//! The internal links' figures (issue 53): links open per peer, frames each way, games
//! dropped from a link because they fell behind, link attempts and reconnections after a
//! failure. Counted by `live::link` on both sides of a link, shown by `/metrics` after the
//! exporter's series (`Metrics::render`).
//!
//! Kept apart from the exporter's recorder: the open links are a gauge per peer that the
//! link tasks move up and down themselves, and the peers are only known as links open.
use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// Which end of a link this instance is.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Side {
    /// This instance forwards its players' commands to the peer, which runs their games.
    Out,
    /// The peer forwards its players' commands here.
    In,
}

impl Side {
    fn as_str(self) -> &'static str {
        match self {
            Side::Out => "out",
            Side::In => "in",
        }
    }
}

#[derive(Default)]
pub struct LinkMetrics {
    /// Links open now, per side and peer (kept at 0 once closed: a series does not vanish
    /// between two scrapes).
    open: Mutex<BTreeMap<(Side, String), u64>>,
    /// Frames sent and received, per side.
    frames: [[AtomicU64; 2]; 2],
    games_dropped: AtomicU64,
    connects_ok: AtomicU64,
    connects_failed: AtomicU64,
    reconnects: AtomicU64,
    /// Peers whose last link failed (refused, broken): the next link opened to one is a
    /// reconnection. A link closed because no game used it is not a failure.
    failed: Mutex<HashSet<String>>,
}

/// A peer's id as a label value: instance ids are the operator's (`--instance`), but one
/// heard from a peer is checked all the same, so that the exposition stays well formed.
fn label(peer: &str) -> String {
    let clean: String = peer
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        .take(64)
        .collect();
    if clean.is_empty() {
        "unknown".into()
    } else {
        clean
    }
}

impl LinkMetrics {
    /// A link to (`Out`) or from (`In`) `peer` is open.
    pub fn opened(&self, side: Side, peer: &str) {
        let peer = label(peer);
        if side == Side::Out {
            self.connects_ok.fetch_add(1, Ordering::Relaxed);
            let mut failed = self.failed.lock().unwrap_or_else(|e| e.into_inner());
            if failed.remove(&peer) {
                self.reconnects.fetch_add(1, Ordering::Relaxed);
            }
        }
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        *open.entry((side, peer)).or_default() += 1;
    }

    /// A link opened by [`LinkMetrics::opened`] closed; `failed` if it broke (or the peer's
    /// answers could not be read) rather than closing because no game used it.
    pub fn closed(&self, side: Side, peer: &str, failed: bool) {
        let peer = label(peer);
        if failed && side == Side::Out {
            self.failed
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(peer.clone());
        }
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = open.get_mut(&(side, peer)) {
            *n = n.saturating_sub(1);
        }
    }

    /// A link to `peer` could not be opened (refused, timed out, not upgraded).
    pub fn connect_failed(&self, peer: &str) {
        self.connects_failed.fetch_add(1, Ordering::Relaxed);
        self.failed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(label(peer));
    }

    /// A frame written to a link.
    pub fn sent(&self, side: Side) {
        self.frames[side as usize][0].fetch_add(1, Ordering::Relaxed);
    }

    /// A frame read from a link.
    pub fn received(&self, side: Side) {
        self.frames[side as usize][1].fetch_add(1, Ordering::Relaxed);
    }

    /// A game dropped from a link because its remote room fell too far behind (its
    /// followers subscribe again).
    pub fn game_dropped(&self) {
        self.games_dropped.fetch_add(1, Ordering::Relaxed);
    }

    /// The figures in Prometheus' text format.
    pub fn render(&self, out: &mut String) {
        let open = self.open.lock().unwrap_or_else(|e| e.into_inner()).clone();
        out.push_str(
            "# HELP pyramidion_links_open Internal links open now, per side (out: this instance forwards its players' commands to the peer; in: the peer forwards here) and peer.\n\
             # TYPE pyramidion_links_open gauge\n",
        );
        for ((side, peer), n) in &open {
            let _ = writeln!(
                out,
                "pyramidion_links_open{{side=\"{}\",peer=\"{peer}\"}} {n}",
                side.as_str()
            );
        }
        out.push_str(
            "# HELP pyramidion_link_frames_total Frames written to and read from internal links, per side and direction.\n\
             # TYPE pyramidion_link_frames_total counter\n",
        );
        for side in [Side::Out, Side::In] {
            for (i, direction) in ["sent", "received"].iter().enumerate() {
                let _ = writeln!(
                    out,
                    "pyramidion_link_frames_total{{side=\"{}\",direction=\"{direction}\"}} {}",
                    side.as_str(),
                    self.frames[side as usize][i].load(Ordering::Relaxed)
                );
            }
        }
        let _ = write!(
            out,
            "# HELP pyramidion_link_games_dropped_total Games dropped from an internal link because their remote room fell too far behind (their followers subscribe again).\n\
             # TYPE pyramidion_link_games_dropped_total counter\n\
             pyramidion_link_games_dropped_total {}\n\
             # HELP pyramidion_link_connects_total Internal links this instance tried to open, per result (ok, failed).\n\
             # TYPE pyramidion_link_connects_total counter\n\
             pyramidion_link_connects_total{{result=\"ok\"}} {}\n\
             pyramidion_link_connects_total{{result=\"failed\"}} {}\n\
             # HELP pyramidion_link_reconnects_total Internal links opened to a peer whose previous link had failed (refused or broken).\n\
             # TYPE pyramidion_link_reconnects_total counter\n\
             pyramidion_link_reconnects_total {}\n",
            self.games_dropped.load(Ordering::Relaxed),
            self.connects_ok.load(Ordering::Relaxed),
            self.connects_failed.load(Ordering::Relaxed),
            self.reconnects.load(Ordering::Relaxed),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(m: &LinkMetrics) -> String {
        let mut s = String::new();
        m.render(&mut s);
        s
    }

    fn has(text: &str, line: &str) -> bool {
        text.lines().any(|l| l == line)
    }

    #[test]
    fn links_are_counted_per_side_and_peer_and_a_reconnection_follows_a_failure() {
        let m = LinkMetrics::default();
        let t = text(&m);
        assert!(has(&t, "pyramidion_link_reconnects_total 0"), "{t}");
        assert!(has(
            &t,
            "pyramidion_link_connects_total{result=\"failed\"} 0"
        ));
        assert!(has(
            &t,
            "pyramidion_link_frames_total{side=\"out\",direction=\"sent\"} 0"
        ));
        m.opened(Side::Out, "b");
        m.opened(Side::In, "c");
        m.sent(Side::Out);
        m.sent(Side::Out);
        m.received(Side::In);
        let t = text(&m);
        for line in [
            "pyramidion_links_open{side=\"out\",peer=\"b\"} 1",
            "pyramidion_links_open{side=\"in\",peer=\"c\"} 1",
            "pyramidion_link_frames_total{side=\"out\",direction=\"sent\"} 2",
            "pyramidion_link_frames_total{side=\"in\",direction=\"received\"} 1",
            "pyramidion_link_connects_total{result=\"ok\"} 1",
        ] {
            assert!(has(&t, line), "no `{line}` in\n{t}");
        }
        // Closed for idleness, then opened again: not a reconnection.
        m.closed(Side::Out, "b", false);
        assert!(has(
            &text(&m),
            "pyramidion_links_open{side=\"out\",peer=\"b\"} 0"
        ));
        m.opened(Side::Out, "b");
        assert!(has(&text(&m), "pyramidion_link_reconnects_total 0"));
        // Broken, then refused, then opened: one reconnection.
        m.closed(Side::Out, "b", true);
        m.connect_failed("b");
        m.opened(Side::Out, "b");
        m.game_dropped();
        let t = text(&m);
        for line in [
            "pyramidion_link_reconnects_total 1",
            "pyramidion_link_connects_total{result=\"failed\"} 1",
            "pyramidion_link_connects_total{result=\"ok\"} 3",
            "pyramidion_link_games_dropped_total 1",
            "pyramidion_links_open{side=\"out\",peer=\"b\"} 1",
        ] {
            assert!(has(&t, line), "no `{line}` in\n{t}");
        }
        // A peer's id heard over the wire cannot break the exposition.
        m.opened(Side::In, "x\"}\n");
        m.opened(Side::In, "");
        let t = text(&m);
        assert!(
            has(&t, "pyramidion_links_open{side=\"in\",peer=\"x\"} 1"),
            "{t}"
        );
        assert!(has(
            &t,
            "pyramidion_links_open{side=\"in\",peer=\"unknown\"} 1"
        ));
    }
}
