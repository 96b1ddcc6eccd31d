//! Storing the moves of a batch: as few multi-row INSERTs as the batch allows, then each
//! move's turn and result. Part of the writer's group commit (`super`), split out because how
//! rows are packed into statements (and how a refused batch falls back to one move at a
//! time) is a concern of its own.
use super::PendingMove;
use crate::db::error::{MoveRefused, Result};
use sqlx::{AnyConnection, AssertSqlSafe, Connection};
use std::sync::LazyLock;

/// Rows per multi-row INSERT: powers of two up to 64, so that a batch of any size takes a
/// handful of statements (231 = 64+64+64+32+4+2+1) drawn from seven prepared ones.
const INSERT_ROWS: [usize; 7] = [64, 32, 16, 8, 4, 2, 1];

/// `INSERT INTO moves … VALUES (…), (…)` for `rows` rows.
fn insert_moves_sql(rows: usize) -> &'static str {
    static SQL: LazyLock<Vec<String>> = LazyLock::new(|| {
        INSERT_ROWS
            .iter()
            .map(|&rows| {
                let values: Vec<String> = (0..rows)
                    .map(|r| {
                        let p = 5 * r;
                        format!(
                            "(${}, ${}, ${}, ${}, ${})",
                            p + 1,
                            p + 2,
                            p + 3,
                            p + 4,
                            p + 5
                        )
                    })
                    .collect();
                format!(
                    "INSERT INTO moves (game_id, ply, text, by_bot, created_at) VALUES {}",
                    values.join(", ")
                )
            })
            .collect()
    });
    let i = INSERT_ROWS
        .iter()
        .position(|&r| r == rows)
        .expect("a listed row count");
    &SQL[i]
}

/// Inserts `moves` in as few statements as possible, in a savepoint; if the database refuses
/// that, each move is inserted in a savepoint of its own, so that only the refused ones fail.
/// The outer error means the transaction is broken; the vector holds each move's own error.
pub(super) async fn insert_moves(
    conn: &mut AnyConnection,
    moves: &[&PendingMove],
) -> Result<Vec<Option<MoveRefused>>> {
    if moves.is_empty() {
        return Ok(Vec::new());
    }
    let all = insert_in_savepoint(conn, moves).await?;
    let Err(e) = all else {
        return Ok(vec![None; moves.len()]);
    };
    tracing::warn!(error = %e, moves = moves.len(), "a batch of moves was refused: inserting them one by one");
    let mut errors = Vec::with_capacity(moves.len());
    for m in moves {
        let one = insert_in_savepoint(conn, std::slice::from_ref(m)).await?;
        errors.push(one.err().map(|e| {
            tracing::error!(game = %m.game_id, ply = m.ply, error = %e, "a move was refused by the database");
            MoveRefused {
                message: e.to_string(),
                duplicate: e.is_unique_violation(),
                batch: false,
            }
        }));
    }
    Ok(errors)
}

async fn insert_in_savepoint(
    conn: &mut AnyConnection,
    moves: &[&PendingMove],
) -> Result<Result<()>> {
    let mut savepoint = conn.begin().await?;
    match insert_rows(&mut savepoint, moves).await {
        Ok(()) => {
            savepoint.commit().await?;
            Ok(Ok(()))
        }
        Err(e) => {
            savepoint.rollback().await?;
            Ok(Err(e))
        }
    }
}

/// Each statement is a round trip to SQLite's worker thread, which a busy machine may be slow
/// to schedule: moves go in as few multi-row statements as possible.
async fn insert_rows(conn: &mut AnyConnection, moves: &[&PendingMove]) -> Result<()> {
    let now = crate::wall_clock::now_ms();
    let mut rest = moves;
    while !rest.is_empty() {
        let rows = INSERT_ROWS
            .into_iter()
            .find(|&r| r <= rest.len())
            .expect("1 divides everything");
        let (chunk, tail) = rest.split_at(rows);
        let mut insert = sqlx::query(AssertSqlSafe(insert_moves_sql(rows)));
        for m in chunk {
            insert = insert
                .bind(&m.game_id)
                .bind(m.ply as i64)
                .bind(&m.text)
                .bind(m.by_bot as i64)
                .bind(now);
        }
        insert.execute(&mut *conn).await?;
        rest = tail;
    }
    for m in moves {
        // The clock and the seat to move change with the move, in the same commit: after a
        // restart the clocks read what they read before.
        if let Some(turn) = &m.turn {
            sqlx::query(
                "UPDATE games SET to_move = $1, clock_state = $2, deadline_at = $3 WHERE id = $4",
            )
            .bind(turn.to_move.map(i64::from))
            .bind(&turn.clock_state)
            .bind(turn.deadline_at)
            .bind(&m.game_id)
            .execute(&mut *conn)
            .await?;
        }
        if let Some(result) = &m.result {
            sqlx::query(
                "UPDATE games SET status = 'finished', result = $1, finished_at = $2 WHERE id = $3",
            )
            .bind(result)
            .bind(now)
            .bind(&m.game_id)
            .execute(&mut *conn)
            .await?;
            // Ratings move in the transaction that ends the game: never one without the other.
            crate::db::ratings::on_game_end(conn, &m.game_id, result).await?;
        }
    }
    Ok(())
}
