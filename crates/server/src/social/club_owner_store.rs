//! What only a club's owner does to it, as stored (issue 49 item 3): rename it (its name
//! checked and kept unique like at its creation, by `name_key`), hand it to another member,
//! delete it. Each is one commit.
use crate::db::error::{Result, StoreError};
use crate::db::store::Store;
use crate::social::club_role::Role;
use sqlx::Row;

/// What deleting a club closed with it: its members-only tables still waiting for players
/// (abandoned: nobody could join them any more, and their seated players would wait for ever)
/// and its tournaments not yet started (cancelled: nobody could enter them any more). Games
/// and tournaments under way play on.
#[derive(Debug, Default)]
pub struct ClubClosed {
    pub tables: Vec<String>,
    pub tournaments: Vec<String>,
}

impl Store {
    /// Renames `club`; false if the name (or a look-alike: `key`) is another club's.
    pub async fn rename_club(&self, club: &str, name: &str, key: &str) -> Result<bool> {
        let (club, name, key) = (club.to_string(), name.to_string(), key.to_string());
        self.writer
            .run(move |conn| {
                Box::pin(async move {
                    let taken = sqlx::query("SELECT 1 FROM clubs WHERE name_key = $1 AND id <> $2")
                        .bind(&key)
                        .bind(&club)
                        .fetch_optional(&mut *conn)
                        .await?;
                    if taken.is_some() {
                        return Ok(false);
                    }
                    sqlx::query("UPDATE clubs SET name = $2, name_key = $3 WHERE id = $1")
                        .bind(&club)
                        .bind(&name)
                        .bind(&key)
                        .execute(&mut *conn)
                        .await?;
                    Ok(true)
                })
            })
            .await
    }

    /// `to` (a member) becomes `club`'s owner and `from` (its owner) a moderator, together.
    pub async fn transfer_club(&self, club: &str, from: &str, to: &str) -> Result<()> {
        let (club, from, to) = (club.to_string(), from.to_string(), to.to_string());
        self.writer
            .run(move |conn| {
                Box::pin(async move {
                    for (user, role) in [(&to, Role::Owner), (&from, Role::Moderator)] {
                        sqlx::query(
                            "UPDATE club_members SET role = $3 WHERE club_id = $1 AND user_id = $2",
                        )
                        .bind(&club)
                        .bind(user)
                        .bind(role.key())
                        .execute(&mut *conn)
                        .await?;
                    }
                    Ok(())
                })
            })
            .await
    }

    /// Deletes `club` and every standing in it, and closes what only its members could have
    /// joined ([`ClubClosed`]), in one commit at `now`.
    pub async fn delete_club(&self, club: &str, now: i64) -> Result<ClubClosed> {
        let club = club.to_string();
        self.writer
            .run(move |conn| {
                Box::pin(async move {
                    let ids = |rows: Vec<sqlx::any::AnyRow>| {
                        rows.iter()
                            .map(|r| r.try_get::<String, _>(0).map_err(StoreError::from))
                            .collect::<Result<Vec<String>>>()
                    };
                    let tables = ids(sqlx::query(
                        "SELECT g.id FROM games g JOIN table_audiences a ON a.game_id = g.id
                         WHERE a.club_id = $1 AND g.status = 'open' ORDER BY g.id",
                    )
                    .bind(&club)
                    .fetch_all(&mut *conn)
                    .await?)?;
                    for id in &tables {
                        sqlx::query(
                            "UPDATE games SET status = 'abandoned' WHERE id = $1 AND status = 'open'",
                        )
                        .bind(id)
                        .execute(&mut *conn)
                        .await?;
                    }
                    let tournaments = ids(sqlx::query(
                        "SELECT id FROM tournaments
                         WHERE club_id = $1 AND entry = 'club' AND status = 'open' ORDER BY id",
                    )
                    .bind(&club)
                    .fetch_all(&mut *conn)
                    .await?)?;
                    // A new version: a director's step computed from the open state commits
                    // nothing over it.
                    sqlx::query(
                        "UPDATE tournaments SET status = 'cancelled', finished_at = $2,
                            cancelled_because = 'club_deleted', version = version + 1
                         WHERE club_id = $1 AND entry = 'club' AND status = 'open'",
                    )
                    .bind(&club)
                    .bind(now)
                    .execute(&mut *conn)
                    .await?;
                    sqlx::query("DELETE FROM club_members WHERE club_id = $1")
                        .bind(&club)
                        .execute(&mut *conn)
                        .await?;
                    sqlx::query("DELETE FROM clubs WHERE id = $1")
                        .bind(&club)
                        .execute(&mut *conn)
                        .await?;
                    Ok(ClubClosed {
                        tables,
                        tournaments,
                    })
                })
            })
            .await
    }
}
