//! Dates by reading: `きょう` offers today's date (`2026/11/26`, `2026年11月26日`,
//! `令和8年11月26日`, `11月26日(木)`, `木曜日`), and `あした`, `あす`, `あさって`, `きのう`, `おととい`
//! the days around it, as Mozc's date rewriter does. Today comes from the caller (the page's
//! clock in the browser, [`crate::Session::set_today`]); without it no date is offered.

/// A calendar day (Gregorian); ordered by year, month, day.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Day {
    /// The year (`2026`).
    pub year: i32,
    /// The month, 1–12.
    pub month: u32,
    /// The day of the month, 1–31.
    pub day: u32,
}

/// The readings that name a day, with their distance from today.
const RELATIVE: &[(&str, i64)] = &[
    ("おととい", -2),
    ("きのう", -1),
    ("きょう", 0),
    ("あした", 1),
    ("あす", 1),
    ("あさって", 2),
];

const WEEKDAYS: [&str; 7] = ["日", "月", "火", "水", "木", "金", "土"];

impl Day {
    /// The day `year-month-day`, or `None` when there is no such day.
    ///
    /// ```
    /// use henkan::dates::Day;
    /// assert!(Day::new(2028, 2, 29).is_some());
    /// assert!(Day::new(2026, 2, 29).is_none());
    /// ```
    pub fn new(year: i32, month: u32, day: u32) -> Option<Day> {
        let d = Day { year, month, day };
        ((1..=12).contains(&month) && day >= 1 && Day::from_days(d.days()) == d).then_some(d)
    }

    /// Days since 1970-01-01 (H. Hinnant's `days_from_civil`).
    fn days(self) -> i64 {
        let y = i64::from(self.year) - i64::from(self.month <= 2);
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let m = i64::from(self.month);
        let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(self.day) - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }

    /// The day `z` days after 1970-01-01 (`civil_from_days`).
    fn from_days(z: i64) -> Day {
        let z = z + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let year = (yoe + era * 400 + i64::from(month <= 2)) as i32;
        Day { year, month, day }
    }

    /// The day `n` days later (earlier for a negative `n`).
    pub fn plus(self, n: i64) -> Day {
        Day::from_days(self.days() + n)
    }

    /// The day of the week, 0 = Sunday.
    pub fn weekday(self) -> usize {
        // 1970-01-01 was a Thursday
        (self.days() + 4).rem_euclid(7) as usize
    }

    /// The Japanese era and its year (`令和8`), for days since 平成 began.
    fn era(self) -> Option<String> {
        let (name, first) = if self
            >= (Day {
                year: 2019,
                month: 5,
                day: 1,
            }) {
            ("令和", 2019)
        } else if self
            >= (Day {
                year: 1989,
                month: 1,
                day: 8,
            })
        {
            ("平成", 1989)
        } else {
            return None;
        };
        Some(match self.year - first + 1 {
            1 => format!("{name}元"),
            n => format!("{name}{n}"),
        })
    }
}

/// The date candidates of `reading` (the whole reading of a segment) when today is `today`,
/// with ASCII digits (the caller applies the digit width); empty for any other reading.
///
/// ```
/// use henkan::dates::{for_reading, Day};
/// let today = Day::new(2026, 11, 26).unwrap();
/// assert_eq!(
///     for_reading("あした", today),
///     ["2026/11/27", "2026年11月27日", "令和8年11月27日", "11月27日(金)", "金曜日"]
/// );
/// assert!(for_reading("きょうと", today).is_empty());
/// ```
pub fn for_reading(reading: &str, today: Day) -> Vec<String> {
    let Some(&(_, n)) = RELATIVE.iter().find(|(r, _)| *r == reading) else {
        return Vec::new();
    };
    let d = today.plus(n);
    let w = WEEKDAYS[d.weekday()];
    let (y, m, dd) = (d.year, d.month, d.day);
    let mut out = vec![format!("{y}/{m:02}/{dd:02}"), format!("{y}年{m}月{dd}日")];
    if let Some(era) = d.era() {
        out.push(format!("{era}年{m}月{dd}日"));
    }
    out.push(format!("{m}月{dd}日({w})"));
    out.push(format!("{w}曜日"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(y: i32, m: u32, d: u32) -> Day {
        Day::new(y, m, d).unwrap()
    }

    #[test]
    fn calendar_arithmetic() {
        assert_eq!(day(1970, 1, 1).days(), 0);
        assert_eq!(day(2026, 12, 31).plus(1), day(2027, 1, 1));
        assert_eq!(day(2028, 2, 28).plus(1), day(2028, 2, 29));
        assert_eq!(day(2100, 2, 28).plus(1), day(2100, 3, 1));
        assert_eq!(day(2000, 3, 1).plus(-1), day(2000, 2, 29));
        assert_eq!(day(2026, 1, 1).plus(-2), day(2025, 12, 30));
        assert_eq!(day(2026, 11, 26).weekday(), 4); // a Thursday
        assert_eq!(day(1969, 12, 31).weekday(), 3);
        for n in -800_000..800_000i64 {
            if n % 997 == 0 {
                let d = Day::from_days(n);
                assert_eq!(d.days(), n);
                assert_eq!(Day::new(d.year, d.month, d.day), Some(d));
            }
        }
        assert!(Day::new(2026, 13, 1).is_none());
        assert!(Day::new(2026, 4, 31).is_none());
        assert!(Day::new(2026, 1, 0).is_none());
    }

    #[test]
    fn eras() {
        assert_eq!(day(2019, 5, 1).era().as_deref(), Some("令和元"));
        assert_eq!(day(2019, 4, 30).era().as_deref(), Some("平成31"));
        assert_eq!(day(1989, 1, 8).era().as_deref(), Some("平成元"));
        assert_eq!(day(1989, 1, 7).era(), None);
        assert_eq!(for_reading("きのう", day(2019, 5, 1))[2], "平成31年4月30日");
    }

    #[test]
    fn relative_days() {
        let today = day(2026, 11, 26);
        assert_eq!(for_reading("きょう", today)[0], "2026/11/26");
        assert_eq!(for_reading("きょう", today)[4], "木曜日");
        assert_eq!(for_reading("あす", today), for_reading("あした", today));
        assert_eq!(for_reading("あさって", today)[0], "2026/11/28");
        assert_eq!(for_reading("きのう", today)[0], "2026/11/25");
        assert_eq!(for_reading("おととい", today)[3], "11月24日(火)");
        assert!(for_reading("", today).is_empty());
    }
}
