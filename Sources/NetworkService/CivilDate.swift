import Foundation

/// Dates of the proleptic Gregorian calendar in UTC as seconds since 1970, by arithmetic
/// (days from civil, H. Hinnant): what the hand-written date readers (``HTTPDate``,
/// ``RFC3339Date``) share instead of a `Calendar` or a formatter per date.
enum CivilDate {
    /// The date at `secondsOfDay` past midnight UTC of `year`-`month`-`day`; `nil` when
    /// `month` is not 1–12 or `day` is not a day of that month.
    static func date(year: Int, month: Int, day: Int, secondsOfDay: Int) -> Date? {
        guard let seconds = secondsSince1970(year: year, month: month, day: day, secondsOfDay: secondsOfDay) else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// ``date(year:month:day:secondsOfDay:)`` as whole seconds since 1970.
    static func secondsSince1970(year: Int, month: Int, day: Int, secondsOfDay: Int) -> Int? {
        guard (1...12).contains(month), day >= 1, day <= length(ofMonth: month, in: year) else { return nil }
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return days * 86_400 + secondsOfDay
    }

    /// The year, month (1–12) and day of the day `days` after 1970-01-01 (negative before it).
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The number of days of `month` (1–12) in `year`.
    static func length(ofMonth month: Int, in year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
