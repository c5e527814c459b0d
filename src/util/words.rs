//! Rough amounts in the words a person reads in a message or a dry run: a duration in the largest
//! unit it reaches ("about 14 years"), bytes in KiB, MiB or GiB (IEC 80000-13 binary prefixes).
//! Both round so that a reader sees the size at a glance; neither is meant to be parsed back.

/// A rough duration, `seconds` in the largest unit it reaches: "about 14 years".
pub fn duration_words(seconds: f64) -> String {
    const UNITS: [(f64, &str); 5] = [
        (365.25 * 86400.0, "years"),
        (86400.0, "days"),
        (3600.0, "hours"),
        (60.0, "minutes"),
        (1.0, "seconds"),
    ];
    match UNITS.into_iter().find(|&(size, _)| seconds >= size) {
        Some((size, unit)) if seconds / size >= 10.0 => {
            format!("about {:.0} {unit}", seconds / size)
        }
        Some((size, unit)) => format!("about {:.1} {unit}", seconds / size),
        None => "under a second".to_string(),
    }
}

/// Bytes in words, rounded up: KiB below a MiB, MiB below 10 GiB, GiB above.
pub fn bytes_words(bytes: u64) -> String {
    if bytes < 1 << 20 {
        format!("{} KiB", bytes.div_ceil(1 << 10))
    } else if bytes < 10 << 30 {
        format!("{} MiB", bytes.div_ceil(1 << 20))
    } else {
        format!("{} GiB", bytes.div_ceil(1 << 30))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_take_the_largest_unit_reached() {
        assert_eq!(duration_words(0.5), "under a second");
        assert_eq!(duration_words(1.0), "about 1.0 seconds");
        assert_eq!(duration_words(59.0), "about 59 seconds");
        assert_eq!(duration_words(90.0), "about 1.5 minutes");
        assert_eq!(duration_words(3.0 * 3600.0), "about 3.0 hours");
        assert_eq!(duration_words(2.0 * 86400.0), "about 2.0 days");
        assert_eq!(duration_words(14.0 * 365.25 * 86400.0), "about 14 years");
    }

    #[test]
    fn bytes_round_up_in_their_unit() {
        assert_eq!(bytes_words(0), "0 KiB");
        assert_eq!(bytes_words(1), "1 KiB");
        assert_eq!(bytes_words(1024), "1 KiB");
        assert_eq!(bytes_words(1025), "2 KiB");
        assert_eq!(bytes_words((1 << 20) - 1), "1024 KiB");
        assert_eq!(bytes_words(1 << 20), "1 MiB");
        assert_eq!(bytes_words((10 << 30) - 1), "10240 MiB");
        assert_eq!(bytes_words(10 << 30), "10 GiB");
        assert_eq!(bytes_words((10 << 30) + 1), "11 GiB");
    }
}
