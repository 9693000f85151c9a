// The notifications Google's SDK posts (`CastState.didChangeNotification`,
// `CastContext.expandedMediaControlsTriggeredNotification`) live in CastSenderNotifications so
// that CastSender needs no Foundation. The widgets load Foundation anyway, so an app built on
// them keeps reaching those names with the imports it had (`CastSender` and `CastSenderUI`).
@_exported import CastSenderNotifications
