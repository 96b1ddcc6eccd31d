//! Storage of clubs and their members (`clubs`, `club_members`, migration 0017), and the one
//! question other features ask of clubs: [`Store::is_club_member`] (club-only tables here,
//! club-only tournaments elsewhere).
use crate::db::error::Result;
use crate::db::store::Store;
use crate::social::club_role::{Admission, Role};
use crate::wall_clock::now_ms;
use sqlx::Row;

/// A club as stored.
#[derive(Clone, Debug)]
pub struct ClubRow {
    pub id: String,
    pub name: String,
    pub description: String,
    pub admission: Admission,
    pub invite: String,
    pub created_by: String,
    pub created_at: i64,
}

/// A member (or a pending or banned user) of a club.
#[derive(Clone, Debug)]
pub struct MemberRow {
    pub user: String,
    pub name: Option<String>,
    pub role: Role,
    pub since: i64,
}

fn club_of(r: &sqlx::any::AnyRow) -> Result<ClubRow> {
    Ok(ClubRow {
        id: r.try_get("id")?,
        name: r.try_get("name")?,
        description: r.try_get("description")?,
        admission: Admission::parse(&r.try_get::<String, _>("admission")?)
            .map_err(|e| crate::db::rows::corrupt("a club's admission", e))?,
        invite: r.try_get("invite")?,
        created_by: r.try_get("created_by")?,
        created_at: r.try_get("created_at")?,
    })
}

const CLUB_COLUMNS: &str = "id, name, description, admission, invite, created_by, created_at";

impl Store {
    /// Creates `club` with its creator as owner; false if the name (or a look-alike: `key`)
    /// is taken.
    pub async fn create_club(&self, club: &ClubRow, key: &str) -> Result<bool> {
        let (c, key) = (club.clone(), key.to_string());
        self.writer
            .run(move |conn| {
                Box::pin(async move {
                    let taken = sqlx::query("SELECT 1 FROM clubs WHERE name_key = $1")
                        .bind(&key)
                        .fetch_optional(&mut *conn)
                        .await?;
                    if taken.is_some() {
                        return Ok(false);
                    }
                    sqlx::query(
                        "INSERT INTO clubs (id, name, name_key, description, admission, invite,
                                            created_by, created_at)
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                    )
                    .bind(&c.id)
                    .bind(&c.name)
                    .bind(&key)
                    .bind(&c.description)
                    .bind(c.admission.key())
                    .bind(&c.invite)
                    .bind(&c.created_by)
                    .bind(c.created_at)
                    .execute(&mut *conn)
                    .await?;
                    sqlx::query(
                        "INSERT INTO club_members (club_id, user_id, role, since)
                         VALUES ($1, $2, $3, $4)",
                    )
                    .bind(&c.id)
                    .bind(&c.created_by)
                    .bind(Role::Owner.key())
                    .bind(c.created_at)
                    .execute(&mut *conn)
                    .await?;
                    Ok(true)
                })
            })
            .await
    }

    pub async fn club(&self, id: &str) -> Result<Option<ClubRow>> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {CLUB_COLUMNS} FROM clubs WHERE id = $1"
        )))
        .bind(id)
        .fetch_optional(&mut *self.read().await?)
        .await?;
        row.as_ref().map(club_of).transpose()
    }

    /// Clubs whose name (or a look-alike) starts with `prefix` (all with ""), by name.
    pub async fn search_clubs(&self, prefix: &str, limit: i64) -> Result<Vec<ClubRow>> {
        let pattern = format!(
            "{}%",
            crate::social::follow_store::like_escape(&crate::names::key(prefix))
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {CLUB_COLUMNS} FROM clubs WHERE name_key LIKE $1 ESCAPE '\\'
              ORDER BY name LIMIT $2"
        )))
        .bind(pattern)
        .bind(limit)
        .fetch_all(&mut *self.read().await?)
        .await?;
        rows.iter().map(club_of).collect()
    }

    /// The clubs `user` is a member of (any role but pending and banned), with that role.
    pub async fn clubs_of(&self, user: &str) -> Result<Vec<(ClubRow, Role)>> {
        let rows = sqlx::query(
            "SELECT c.id, c.name, c.description, c.admission, c.invite, c.created_by,
                    c.created_at, m.role
               FROM clubs c JOIN club_members m ON m.club_id = c.id
              WHERE m.user_id = $1 AND m.role IN ('owner', 'moderator', 'member')
              ORDER BY c.name",
        )
        .bind(user)
        .fetch_all(&mut *self.read().await?)
        .await?;
        rows.iter()
            .map(|r| {
                let role = Role::parse(&r.try_get::<String, _>("role")?)
                    .map_err(|e| crate::db::rows::corrupt("a club member's role", e))?;
                Ok((club_of(r)?, role))
            })
            .collect()
    }

    /// How many clubs `user` owns.
    pub async fn clubs_owned(&self, user: &str) -> Result<i64> {
        Ok(sqlx::query_scalar(
            "SELECT COUNT(*) FROM club_members WHERE user_id = $1 AND role = 'owner'",
        )
        .bind(user)
        .fetch_one(&mut *self.read().await?)
        .await?)
    }

    /// `user`'s standing in `club`, if any.
    pub async fn club_role(&self, club: &str, user: &str) -> Result<Option<Role>> {
        let row = sqlx::query("SELECT role FROM club_members WHERE club_id = $1 AND user_id = $2")
            .bind(club)
            .bind(user)
            .fetch_optional(&mut *self.read().await?)
            .await?;
        match row {
            None => Ok(None),
            Some(r) => Ok(Some(
                Role::parse(&r.try_get::<String, _>("role")?)
                    .map_err(|e| crate::db::rows::corrupt("a club member's role", e))?,
            )),
        }
    }

    /// Whether `user` is a member of `club` (owner, moderator or member; not a pending
    /// request, not banned). The entry condition of club-only tables and tournaments.
    pub async fn is_club_member(&self, club: &str, user: &str) -> Result<bool> {
        Ok(self
            .club_role(club, user)
            .await?
            .is_some_and(Role::is_member))
    }

    /// Sets `user`'s standing in `club` (a new row, or the old one changed).
    pub async fn set_club_role(&self, club: &str, user: &str, role: Role) -> Result<()> {
        self.writer
            .execute(
                sqlx::query(
                    "INSERT INTO club_members (club_id, user_id, role, since) VALUES ($1, $2, $3, $4)
                     ON CONFLICT (club_id, user_id) DO UPDATE SET role = $3, since = $4",
                )
                .bind(club)
                .bind(user)
                .bind(role.key())
                .bind(now_ms()),
            )
            .await
    }

    /// Forgets `user`'s standing in `club` (they left, or were removed without a ban).
    pub async fn drop_club_member(&self, club: &str, user: &str) -> Result<()> {
        self.writer
            .execute(
                sqlx::query("DELETE FROM club_members WHERE club_id = $1 AND user_id = $2")
                    .bind(club)
                    .bind(user),
            )
            .await
    }

    /// Everyone with a standing in `club`: owner first, then moderators, members, pending
    /// requests, banned users; by name within each.
    pub async fn club_members(&self, club: &str) -> Result<Vec<MemberRow>> {
        let rows = sqlx::query(
            "SELECT m.user_id, u.name, m.role, m.since FROM club_members m
               LEFT JOIN users u ON u.id = m.user_id
              WHERE m.club_id = $1
              ORDER BY CASE m.role WHEN 'owner' THEN 0 WHEN 'moderator' THEN 1
                                   WHEN 'member' THEN 2 WHEN 'pending' THEN 3 ELSE 4 END,
                       u.name, m.user_id",
        )
        .bind(club)
        .fetch_all(&mut *self.read().await?)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(MemberRow {
                    user: r.try_get("user_id")?,
                    name: r.try_get("name")?,
                    role: Role::parse(&r.try_get::<String, _>("role")?)
                        .map_err(|e| crate::db::rows::corrupt("a club member's role", e))?,
                    since: r.try_get("since")?,
                })
            })
            .collect()
    }

    /// The latest finished, listed games with a member of `club` seated: (game id, user)
    /// rows, newest first, at most `limit` games.
    pub async fn club_recent_games(&self, club: &str, limit: i64) -> Result<Vec<String>> {
        let rows = sqlx::query(
            "SELECT g.id, g.finished_at FROM games g
              WHERE g.status = 'finished' AND g.listed = 1 AND EXISTS (
                    SELECT 1 FROM seats s JOIN club_members m ON m.user_id = s.user_id
                     WHERE s.game_id = g.id AND s.kind = 'human' AND m.club_id = $1
                       AND m.role IN ('owner', 'moderator', 'member'))
              ORDER BY g.finished_at DESC, g.id LIMIT $2",
        )
        .bind(club)
        .bind(limit)
        .fetch_all(&mut *self.read().await?)
        .await?;
        rows.iter().map(|r| Ok(r.try_get("id")?)).collect()
    }

    /// The ratings of `club`'s members: (game key, user, name, rating, deviation, games),
    /// best first within each game.
    pub async fn club_ratings(&self, club: &str) -> Result<Vec<ClubRating>> {
        let rows = sqlx::query(
            "SELECT r.game, r.player, u.name, r.rating, r.deviation, r.games
               FROM ratings r JOIN club_members m ON m.user_id = r.player
               LEFT JOIN users u ON u.id = r.player
              WHERE m.club_id = $1 AND m.role IN ('owner', 'moderator', 'member')
              ORDER BY r.game, r.rating DESC, r.player",
        )
        .bind(club)
        .fetch_all(&mut *self.read().await?)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(ClubRating {
                    game: r.try_get("game")?,
                    user: r.try_get("player")?,
                    name: r.try_get("name")?,
                    rating: r.try_get("rating")?,
                    deviation: r.try_get("deviation")?,
                    games: r.try_get("games")?,
                })
            })
            .collect()
    }
}

/// A member's rating for one game.
pub struct ClubRating {
    pub game: String,
    pub user: String,
    pub name: Option<String>,
    pub rating: f64,
    pub deviation: f64,
    pub games: i64,
}

impl Store {
    /// The open tables kept for `club`'s members, oldest first.
    pub async fn club_open_tables(&self, club: &str) -> Result<Vec<crate::db::rows::GameRow>> {
        let rows = sqlx::query(
            "SELECT a.game_id FROM table_audiences a JOIN games g ON g.id = a.game_id
              WHERE a.audience = 'club' AND a.club_id = $1 AND g.status = 'open'
              ORDER BY g.created_at, g.id",
        )
        .bind(club)
        .fetch_all(&mut *self.read().await?)
        .await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            if let Some(g) = self.game(&r.try_get::<String, _>("game_id")?).await? {
                out.push(g);
            }
        }
        Ok(out)
    }
}
