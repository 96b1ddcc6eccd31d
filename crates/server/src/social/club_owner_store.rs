//! What only a club's owner does to it, as stored (issue 49 item 3): rename it (its name
//! checked and kept unique like at its creation, by `name_key`), hand it to another member,
//! delete it. Each is one commit.
use crate::db::error::Result;
use crate::db::store::Store;
use crate::social::club_role::Role;

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

    /// Deletes `club` and every standing in it. Its tables stay what they were: a club-only
    /// table admits nobody more (nobody is a member of a club that is gone), a game under
    /// way plays on.
    pub async fn delete_club(&self, club: &str) -> Result<()> {
        let club = club.to_string();
        self.writer
            .run(move |conn| {
                Box::pin(async move {
                    sqlx::query("DELETE FROM club_members WHERE club_id = $1")
                        .bind(&club)
                        .execute(&mut *conn)
                        .await?;
                    sqlx::query("DELETE FROM clubs WHERE id = $1")
                        .bind(&club)
                        .execute(&mut *conn)
                        .await?;
                    Ok(())
                })
            })
            .await
    }
}
