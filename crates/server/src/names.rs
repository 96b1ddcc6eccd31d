//! Account names: what may be registered and when two names are "the same". A name is stored
//! in NFKC form (so 𝐚𝐝𝐦𝐢𝐧 in mathematical bold is `admin`) and is unique by its key: the UTS #39
//! confusable skeleton of its NFKC form in upper case, then of that in lower case, with
//! combining marks dropped ([`key`]), so that `ADMIN`, Cyrillic `аdmin`, `ádmin` and `admln`
//! are all taken once `admin` is, and `lan` once `Ian` is. A name may not look like
//! a user id (profiles and exports are found by id or name) nor like a guest's name.
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;
use unicode_security::confusable_detection::skeleton;
use unicode_security::{GeneralSecurityProfile, RestrictionLevel, RestrictionLevelDetection};

/// Characters in a name.
pub const MIN_CHARS: usize = 3;
pub const MAX_CHARS: usize = 24;
/// Combining marks in a row (scripts such as Devanagari need two; "Zalgo" text has dozens).
const MAX_MARKS_IN_A_ROW: usize = 2;
/// A name of this many hex-like characters or more could pass for a user id (24 hex digits).
const ID_LIKE_CHARS: usize = 16;

/// Why a name is refused (the `bad_name` error's message).
#[derive(Debug, PartialEq, Eq)]
pub struct BadName(pub &'static str);

/// A name that may be registered: its stored (NFKC) form and its key.
#[derive(Debug, PartialEq, Eq)]
pub struct Name {
    pub name: String,
    pub key: String,
}

/// The key two names share when they look alike.
///
/// The skeleton is taken of the upper-case form first, then of its lower-case: folding case
/// before the skeleton (as keys did until migration 0020) turned a capital `I` into `i`, which
/// never meets `l`, so `Ian` and `lan` were two names. Since `admin` and `ADMIN` are one
/// name and `ADMIN` looks like `ADMlN`, a key that catches the capital I puts `i` with `l`
/// (and `1`) in every case: `admin` and `admln` are one name too. The lower-case skeleton
/// after it keeps the look-alikes that exist only in lower case (`rn` and `m`).
pub fn key(name: &str) -> String {
    let upper: String = name.nfkc().flat_map(char::to_uppercase).collect();
    let lower: String = skeleton(&upper).flat_map(char::to_lowercase).collect();
    // The skeleton maps to prototypes, some of them capitals or with marks: fold again and
    // drop marks, so that the key does not depend on which look-alike came first.
    skeleton(&lower)
        .flat_map(char::to_lowercase)
        .collect::<String>()
        .nfd()
        .filter(|c| !is_combining_mark(*c))
        .collect()
}

/// Whether `key` is made only of characters that look like hex digits.
fn id_like(key_of_name: &str) -> bool {
    let hex = key("0123456789abcdef");
    key_of_name.chars().count() >= ID_LIKE_CHARS && key_of_name.chars().all(|c| hex.contains(c))
}

/// Checks a name someone wants to register.
pub fn check(raw: &str) -> Result<Name, BadName> {
    let name: String = raw.nfkc().collect();
    let chars = name.chars().count();
    let shape = "names have 3–24 letters, digits, _ or -";
    if !(MIN_CHARS..=MAX_CHARS).contains(&chars) {
        return Err(BadName(shape));
    }
    let mut marks = 0;
    for ch in name.chars() {
        let mark = is_combining_mark(ch);
        marks = if mark { marks + 1 } else { 0 };
        if marks > MAX_MARKS_IN_A_ROW || (!mark && !ch.is_alphanumeric() && ch != '_' && ch != '-')
        {
            return Err(BadName(shape));
        }
    }
    if name.starts_with(|c: char| is_combining_mark(c)) {
        return Err(BadName(shape));
    }
    // UTS #39: characters recommended for identifiers, and no mix of scripts that look alike
    // (Latin with Cyrillic or Greek); Latin with Han or Kana is fine.
    if !name.chars().all(|c| c.identifier_allowed() || c == '-')
        || !name
            .as_str()
            .check_restriction_level(RestrictionLevel::HighlyRestrictive)
    {
        return Err(BadName(
            "names use one script (and digits): no look-alike letters of another",
        ));
    }
    let key = key(&name);
    if id_like(&key) {
        return Err(BadName("a name may not look like a player id"));
    }
    if key.starts_with(&self::key("guest-")) || key.starts_with(&self::key("guest_")) {
        return Err(BadName("a name may not look like a guest's"));
    }
    Ok(Name { name, key })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn look_alikes_share_a_key() {
        let admin = key("admin");
        for alike in [
            "ADMIN",
            "Admin",
            "\u{0430}dmin",                                  // Cyrillic а
            "\u{1d41a}\u{1d41d}\u{1d426}\u{1d422}\u{1d427}", // mathematical bold
            "a\u{0301}dmin",                                 // á, decomposed
            "\u{e1}dmin",                                    // á, composed
            "adm\u{0131}n",                                  // dotless ı
            "ad\u{ff4d}in",                                  // fullwidth ｍ
        ] {
            assert_eq!(key(alike), admin, "{alike:?}");
        }
        assert_ne!(key("admins"), admin);
        // l and 1 look alike; so do O and 0.
        assert_eq!(key("Ol1"), key("0ll"));
    }

    /// Issue 54: a capital I looks like a small l, so `Ian` is `lan`; and since case never
    /// makes two names, a small i is an l too. Look-alikes of lower case only still meet.
    #[test]
    fn a_capital_i_and_a_small_l_are_one_name() {
        assert_eq!(key("Ian"), key("lan"));
        assert_eq!(key("BILL"), key("bill"));
        assert_eq!(key("BIll"), key("Blll"));
        assert_eq!(key("admin"), key("admln"));
        assert_eq!(key("I1l|"), key("llll"));
        assert_eq!(key("rnary"), key("mary"));
        assert_ne!(key("ian"), key("jan"));
        assert_ne!(key("ann"), key("anna"));
        // The names stored with the new keys (migration 0020) are still plain.
        assert_eq!(check("Ian").unwrap().name, "Ian");
    }

    #[test]
    fn names_are_checked() {
        assert_eq!(check("ann_42").unwrap().name, "ann_42");
        // Stored as NFKC: mathematical bold is plain.
        assert_eq!(
            check("\u{1d41a}\u{1d41d}\u{1d426}\u{1d422}\u{1d427}")
                .unwrap()
                .name,
            "admin"
        );
        assert!(check("Jürgen").is_ok());
        assert!(check("Ελένη").is_ok());
        assert!(check("Андрей").is_ok());
        assert!(check("山田たろう").is_ok());
        assert!(check("मोहन").is_ok());
        // Latin and Cyrillic mixed.
        assert!(check("\u{0430}dmin").is_err());
        // 20 combining marks.
        assert!(check(&format!("admin{}", "\u{0301}".repeat(20))).is_err());
        assert!(check(&format!("admin{}", "\u{0345}".repeat(20))).is_err());
        assert!(check("ab").is_err());
        assert!(check("a b c").is_err());
        assert!(check(&"x".repeat(25)).is_err());
        // A user id, in any case or look-alike digits.
        assert!(check("0123456789abcdef01234567").is_err());
        assert!(check("0123456789ABCDEF01234567").is_err());
        assert!(check("Ol23456789abcdefOl234567").is_err());
        assert!(check("deadbeef").is_ok());
        assert!(check("guest-abc123").is_err());
        assert!(check("GUEST_x").is_err());
    }
}
