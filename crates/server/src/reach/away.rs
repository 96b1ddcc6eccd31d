//! What reaching a player away is about: the events (`Kind`, `Away`), each player's choice
//! of them (`Prefs`), and the server's settings (`ReachConfig`).
use crate::db::store::Store;
use ipnet::IpNet;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::net::IpAddr;

/// A clock with this much time per turn or more makes a game turn-based enough to reach a
/// player away from the site when it becomes their move.
pub const TURN_BASED_MS: i64 = 3600 * 1000;

/// What happened that a player away should hear of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    YourMove,
    Rematch,
    TableFull,
    /// Another player of a turn-based game went on vacation: its clock pauses for them
    /// (`crate::live::vacation`).
    Vacation,
    /// A friend kept a seat for them at a new table (`crate::social::friends`).
    Challenge,
}

impl Kind {
    pub const ALL: [Kind; 5] = [
        Kind::YourMove,
        Kind::Rematch,
        Kind::TableFull,
        Kind::Vacation,
        Kind::Challenge,
    ];

    pub fn key(self) -> &'static str {
        match self {
            Kind::YourMove => "your_move",
            Kind::Rematch => "rematch",
            Kind::TableFull => "table_full",
            Kind::Vacation => "vacation",
            Kind::Challenge => "challenge",
        }
    }
}

/// One event for one user.
#[derive(Clone, Debug)]
pub struct Away {
    pub user: String,
    /// The game (for a rematch: the new table).
    pub game: String,
    pub kind: Kind,
}

/// Which events reach a user, by push and by e-mail (every one, both ways, by default).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Prefs {
    pub push: BTreeMap<Kind, bool>,
    pub email: BTreeMap<Kind, bool>,
}

impl Default for Prefs {
    fn default() -> Self {
        let all: BTreeMap<Kind, bool> = Kind::ALL.iter().map(|k| (*k, true)).collect();
        Prefs {
            push: all.clone(),
            email: all,
        }
    }
}

impl Prefs {
    /// `user`'s choices (the defaults until they make some).
    pub async fn of(store: &Store, user: &str) -> crate::db::error::Result<Prefs> {
        Ok(match store.notify_prefs(user).await? {
            Some(json) => serde_json::from_str(&json).unwrap_or_default(),
            None => Prefs::default(),
        })
    }

    pub fn push_on(&self, kind: Kind) -> bool {
        self.push.get(&kind).copied().unwrap_or(true)
    }
    pub fn email_on(&self, kind: Kind) -> bool {
        self.email.get(&kind).copied().unwrap_or(true)
    }
}

/// How the server reaches players away.
#[derive(Clone, Debug)]
pub struct ReachConfig {
    /// `smtp://…` / `smtps://…` (lettre's URL form); none: e-mail is off.
    pub smtp: Option<String>,
    /// The sender of every mail.
    pub mail_from: String,
    /// The site's address as players reach it (links in mails; the VAPID subject).
    pub public_url: String,
    /// Push endpoints may be plain `http://` and on loopback (tests stand one up there);
    /// browsers' push services are always public HTTPS.
    pub allow_http_push: bool,
    /// Hosts and networks push endpoints may reach though not public (`--push-allow-host`).
    pub push_allow: AllowList,
    /// How long one push may take, connecting included (`--push-timeout`).
    pub push_timeout: std::time::Duration,
    /// Users whose notifications are being delivered at once (`--push-workers`); each user's
    /// events leave in order, one at a time.
    pub push_workers: usize,
    /// Bounds on mail (`MailLimits`).
    pub mail_limits: MailLimits,
}

/// Bounds on mail, counted by the recipient's address whatever game, table or account it is
/// about (`--mail-per-address`, `--offer-mail-hours`, `--verify-mails-per-address`,
/// `--verify-mails-per-user`).
#[derive(Clone, Copy, Debug)]
pub struct MailLimits {
    /// Notification mails to one address an hour; more wait in their games' batches until the
    /// hour leaves room.
    pub per_address_hour: usize,
    /// One rematch offer mailed per asker and address this often: a rematch loop (ask, leave,
    /// ask again: a new table each time) is one conversation. Later offers are pushed and
    /// shown on the site, not mailed.
    pub offer_every: std::time::Duration,
    /// Verification mails to one address a day (`429 too_many_verification_mails`)…
    pub verify_per_address_day: usize,
    /// …and asked by one account a day.
    pub verify_per_user_day: usize,
}

impl Default for MailLimits {
    fn default() -> Self {
        MailLimits {
            per_address_hour: 10,
            offer_every: std::time::Duration::from_secs(24 * 3600),
            verify_per_address_day: 3,
            verify_per_user_day: 5,
        }
    }
}

/// Hosts and networks the operator lets push endpoints reach though they are not public
/// (`--push-allow-host`): a host name (an endpoint on it is reached wherever it resolves), or
/// an address or CIDR network (an endpoint resolving there, or written as it, is reached).
#[derive(Clone, Debug, Default)]
pub struct AllowList {
    pub(super) names: Vec<String>,
    pub(super) networks: Vec<IpNet>,
}

impl AllowList {
    pub fn parse(items: &[String]) -> Result<AllowList, String> {
        let mut allow = AllowList::default();
        for item in items.iter().map(|i| i.trim()).filter(|i| !i.is_empty()) {
            if let Ok(net) = item.parse::<IpNet>() {
                allow.networks.push(net.trunc());
            } else if let Ok(ip) = item.trim_matches(['[', ']']).parse::<IpAddr>() {
                allow.networks.push(IpNet::from(ip));
            } else if item
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.')
                && !item.starts_with(['.', '-'])
            {
                allow
                    .names
                    .push(item.trim_end_matches('.').to_ascii_lowercase());
            } else {
                return Err(format!(
                    "'{item}' is not a host name, an address or a CIDR network"
                ));
            }
        }
        Ok(allow)
    }
}
