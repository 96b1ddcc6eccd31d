//! Who may sit at a table besides those a seat is kept for (issue 49): anyone, the players
//! its creator follows (friends-only), or the members of a club (club-only). Stored beside
//! the table (`table_audiences`), checked by the server when someone joins, and used to keep
//! such a table out of the lobby of those who may not sit there.
use crate::AppState;
use crate::db::error::Result;
use crate::db::rows::GameRow;
use crate::db::store::Store;
use crate::error::{ApiError, ApiResult};
use crate::error_code::ApiErrorCode;
use sqlx::Row;

// What a table shows of it (`crate::table_view`, below this module).
pub use crate::table_view::Audience;

impl Store {
    /// Keeps `game`'s free seats for `audience`. Written before the table itself, so that
    /// no one ever sees the table without it.
    pub async fn set_audience(&self, game: &str, audience: &Audience) -> Result<()> {
        let (kind, club) = match audience {
            Audience::Friends => ("friends", None),
            Audience::Club { club } => ("club", Some(club.as_str())),
        };
        self.writer
            .execute(
                sqlx::query(
                    "INSERT INTO table_audiences (game_id, audience, club_id) VALUES ($1, $2, $3)",
                )
                .bind(game)
                .bind(kind)
                .bind(club),
            )
            .await
    }

    /// Who may take a free seat at `game` (`None`: anyone).
    pub async fn audience(&self, game: &str) -> Result<Option<Audience>> {
        let row = sqlx::query("SELECT audience, club_id FROM table_audiences WHERE game_id = $1")
            .bind(game)
            .fetch_optional(&mut *self.read().await?)
            .await?;
        let Some(r) = row else { return Ok(None) };
        let kind: String = r.try_get("audience")?;
        Ok(Some(match kind.as_str() {
            "friends" => Audience::Friends,
            "club" => Audience::Club {
                club: r
                    .try_get::<Option<String>, _>("club_id")?
                    .unwrap_or_default(),
            },
            other => {
                return Err(crate::db::rows::corrupt(
                    "a table's audience",
                    format!("unknown audience '{other}'"),
                ));
            }
        }))
    }
}

/// Whether `user` is in `audience` of a table created by `creator`.
pub async fn admits(
    state: &AppState,
    audience: &Audience,
    creator: &str,
    user: &str,
) -> Result<bool> {
    if user == creator {
        return Ok(true);
    }
    match audience {
        Audience::Friends => state.store.follows(creator, user).await,
        Audience::Club { club } => state.store.is_club_member(club, user).await,
    }
}

/// Everyone in `audience` of a table created by `creator` (the creator too): those whose
/// live lobby hears of the table (`crate::http::api`'s `tell_lobby`), as only they see it.
pub async fn members(state: &AppState, audience: &Audience, creator: &str) -> Result<Vec<String>> {
    let mut users: Vec<String> = match audience {
        Audience::Friends => state
            .store
            .followed_by(creator)
            .await?
            .into_iter()
            .map(|f| f.user)
            .collect(),
        Audience::Club { club } => state
            .store
            .club_members(club)
            .await?
            .into_iter()
            .filter(|m| m.role.is_member())
            .map(|m| m.user)
            .collect(),
    };
    if !users.iter().any(|u| u == creator) {
        users.push(creator.to_string());
    }
    Ok(users)
}

/// Refuses `user` a free seat at `row` if the table is for an audience they are not in:
/// `403 friends_only` or `403 club_only`. (A seat kept for them is theirs whatever the
/// audience: the caller does not ask then.)
pub async fn may_join(state: &AppState, row: &GameRow, user: &str) -> ApiResult<()> {
    let Some(audience) = state.store.audience(&row.id).await? else {
        return Ok(());
    };
    if admits(state, &audience, &row.created_by, user).await? {
        return Ok(());
    }
    Err(match audience {
        Audience::Friends => ApiError::new(
            ApiErrorCode::FriendsOnly,
            "only the players this table's creator follows may sit here",
        ),
        Audience::Club { .. } => ApiError::new(
            ApiErrorCode::ClubOnly,
            "only the members of this table's club may sit here",
        ),
    })
}

/// Whether a viewer (`None`: nobody signed in) may see `row` in the lobby: anyone sees a
/// table for anyone; a friends-only or club table only those who may sit there, and those
/// seated.
pub async fn visible_to(state: &AppState, row: &GameRow, viewer: Option<&str>) -> Result<bool> {
    let Some(audience) = state.store.audience(&row.id).await? else {
        return Ok(true);
    };
    let Some(viewer) = viewer else {
        return Ok(false);
    };
    admits(state, &audience, &row.created_by, viewer).await
}

/// The audience a new table asks for (`friends_only`, `club`): both at once is a bad request,
/// a club the creator is not a member of `403 club_only`.
pub async fn of_new_table(
    state: &AppState,
    creator: &str,
    friends_only: bool,
    club: Option<&str>,
) -> ApiResult<Option<Audience>> {
    match (friends_only, club) {
        (false, None) => Ok(None),
        (true, Some(_)) => Err(ApiError::bad_request(
            "a table is for friends or for a club, not both",
        )),
        (true, None) => Ok(Some(Audience::Friends)),
        (false, Some(club)) => {
            if !state.store.is_club_member(club, creator).await? {
                return Err(ApiError::new(
                    ApiErrorCode::ClubOnly,
                    "a club's tables are made by its members",
                ));
            }
            Ok(Some(Audience::Club {
                club: club.to_string(),
            }))
        }
    }
}
