//! Issue 54: the cluster's `/internal/` routes on the public listener (no
//! `--internal-listen`): only the other instances' requests (with the cluster's secret) skip
//! the per-address rate limit, and none reached through a proxy is served.
use crate::cluster_support::*;

#[tokio::test]
async fn only_the_instances_skip_the_rate_limit_and_no_proxy_reaches_internal_routes() {
    let database = fresh_database("pyramidion_ops_internal_gate_test").await;
    // One request a second, a burst of four, for everybody on this machine.
    let (_instances, bases) = start_all(&database, &["a"], &["--http-rate", "1"]);
    let http = reqwest::Client::new();
    let me = guest(&http, &bases[0]).await.unwrap();
    let user = user_id(&http, &bases[0], &me).await;
    let mut c = db(&database).await;
    let secret: String =
        sqlx::query_scalar("SELECT value FROM server_secrets WHERE name = 'cluster_link'")
            .fetch_one(&mut c)
            .await
            .unwrap();
    let pairing = |secret: Option<&str>, forwarded: bool| {
        let mut r = http
            .post(format!("{}/internal/pairing", bases[0]))
            .header("x-pyramidion-user", &user)
            .body(r#"{"game": "pyramids", "players": 2}"#);
        if let Some(s) = secret {
            r = r.header("x-pyramidion-cluster", s);
        }
        if forwarded {
            r = r.header("x-forwarded-for", "203.0.113.7");
        }
        r.send()
    };
    // Another instance, as often as its players ask: never limited.
    for _ in 0..12 {
        let status = pairing(Some(&secret), false)
            .await
            .unwrap()
            .status()
            .as_u16();
        assert_eq!(status, 202);
    }
    // A stranger: limited like any path, then (within the budget) not found.
    let mut statuses = Vec::new();
    for _ in 0..12 {
        statuses.push(pairing(None, false).await.unwrap().status().as_u16());
    }
    assert!(statuses.contains(&429), "{statuses:?}");
    assert!(
        statuses.iter().all(|s| [404, 429].contains(s)),
        "{statuses:?}"
    );
    // Through a proxy, even with the secret: refused.
    tokio::time::sleep(std::time::Duration::from_secs(5)).await;
    let status = pairing(Some(&secret), true)
        .await
        .unwrap()
        .status()
        .as_u16();
    assert_eq!(status, 404);
}
