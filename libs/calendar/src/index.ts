export { calendarDate, daysInMonth, isLeapYear, isoDate, unixDaysOfIsoDate } from './calendar-date';
