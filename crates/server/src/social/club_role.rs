//! What a club's rows mean: how one joins a club ([`Admission`]) and one's standing in it
//! ([`Role`]), with what each role may do to another.
use serde::{Deserialize, Serialize};

/// How one joins a club.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Admission {
    /// Anyone signed in with an account joins at once.
    Open,
    /// A request waits for a moderator (the invite token lets one in at once).
    Approval,
    /// Only with the invite token.
    Invite,
}

impl Admission {
    pub fn key(self) -> &'static str {
        match self {
            Admission::Open => "open",
            Admission::Approval => "approval",
            Admission::Invite => "invite",
        }
    }

    pub fn parse(s: &str) -> Result<Admission, String> {
        match s {
            "open" => Ok(Admission::Open),
            "approval" => Ok(Admission::Approval),
            "invite" => Ok(Admission::Invite),
            other => Err(format!("unknown admission '{other}'")),
        }
    }
}

/// One's standing in a club.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Owner,
    Moderator,
    Member,
    /// Asked to join a club that approves its members.
    Pending,
    /// Removed and kept out until a moderator unbans.
    Banned,
}

impl Role {
    pub fn key(self) -> &'static str {
        match self {
            Role::Owner => "owner",
            Role::Moderator => "moderator",
            Role::Member => "member",
            Role::Pending => "pending",
            Role::Banned => "banned",
        }
    }

    pub fn parse(s: &str) -> Result<Role, String> {
        match s {
            "owner" => Ok(Role::Owner),
            "moderator" => Ok(Role::Moderator),
            "member" => Ok(Role::Member),
            "pending" => Ok(Role::Pending),
            "banned" => Ok(Role::Banned),
            other => Err(format!("unknown club role '{other}'")),
        }
    }

    /// Whether this standing makes one a member (it may sit at the club's tables).
    pub fn is_member(self) -> bool {
        matches!(self, Role::Owner | Role::Moderator | Role::Member)
    }

    /// Whether one of this standing moderates (approves, removes, bans).
    pub fn moderates(self) -> bool {
        matches!(self, Role::Owner | Role::Moderator)
    }

    /// Whether one of this standing may approve, remove, ban or unban one of `other`'s: a
    /// moderator acts on members, requests and banned users; the owner on moderators too;
    /// nobody on the owner.
    pub fn may_moderate(self, other: Role) -> bool {
        match self {
            Role::Owner => other != Role::Owner,
            Role::Moderator => matches!(other, Role::Member | Role::Pending | Role::Banned),
            _ => false,
        }
    }
}

/// What a moderator does to a user of a club.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Moderation {
    /// A pending request becomes a member.
    Approve,
    /// Out of the club (may ask again).
    Remove,
    /// Out of the club, and kept out.
    Ban,
    /// A banned user may ask again (no standing left).
    Unban,
    /// A member becomes a moderator (the owner only).
    Promote,
    /// A moderator becomes a member (the owner only).
    Demote,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moderators_act_below_themselves_and_nobody_on_the_owner() {
        use Role::*;
        for r in [Owner, Moderator, Member, Pending, Banned] {
            assert!(!r.may_moderate(Owner), "{r:?} on the owner");
            assert!(!Member.may_moderate(r) && !Pending.may_moderate(r) && !Banned.may_moderate(r));
            assert_eq!(Role::parse(r.key()), Ok(r));
        }
        assert!(Owner.may_moderate(Moderator));
        assert!(!Moderator.may_moderate(Moderator));
        assert!(Moderator.may_moderate(Member) && Moderator.may_moderate(Banned));
        assert!(Member.is_member() && !Pending.is_member() && !Banned.is_member());
        for a in [Admission::Open, Admission::Approval, Admission::Invite] {
            assert_eq!(Admission::parse(a.key()), Ok(a));
        }
    }
}
