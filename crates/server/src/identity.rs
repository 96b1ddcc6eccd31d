//! Who is asking: the signed-in user (account or guest) of a request or a socket, and the
//! name everyone sees. How a request proves it (the session cookie) is `http::auth`'s.

/// The signed-in user (account or guest) of a request.
#[derive(Clone, Debug)]
pub struct Identity {
    pub user_id: String,
    pub name: Option<String>,
    pub guest: bool,
}

impl Identity {
    pub fn display_name(&self) -> String {
        display_name(&self.user_id, self.name.as_deref())
    }
}

/// A user's name as shown to everyone: the account name, or `guest-` and the id's start.
pub fn display_name(user_id: &str, name: Option<&str>) -> String {
    match name {
        Some(n) => n.to_string(),
        None => format!("guest-{}", &user_id[..user_id.len().min(6)]),
    }
}
