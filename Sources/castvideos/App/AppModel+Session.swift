import CastCore
import CastSender
import CastSenderUI
import Foundation
import TerminalUI

extension AppModel {
    // MARK: Session events

    func handle(_ event: SessionEvent) {
        let session = event.session
        switch event.kind {
        case .willStart:
            self.session = session
        case .didStart:
            attach(session)
            // The connecting note is over: the connection's outcome replaces it.
            toasts.withdraw(now: now) { $0.hasPrefix("Connecting to ") }
            toast("Connected to \(session.device.friendlyName ?? "the device")")
            playback.switchToRemotePlayback()
            closeChooser()
        case .didResume:
            attach(session)
            toast("Resumed casting on \(session.device.friendlyName ?? "the device")")
            playback.switchToRemotePlayback()
        case .didFailToStart:
            toasts.withdraw(now: now) { $0.hasPrefix("Connecting to ") }
            detachSession()
            closeChooser()
            let reason = event.error?.description ?? "unknown error"
            modal = .alert(Dialog(title: "Failed to start a session", message: reason))
        case .didEnd:
            var message = "The Casting session has ended."
            if let error = event.error { message += "\n\(error.description)" }
            toast(message, seconds: 6)
            playback.switchToLocalPlayback(from: session.remoteMediaClient)
            detachSession()
            closeCastModals()
            popCastScreens()
        case .didFailToResume:
            toast("The Casting session could not be resumed.", seconds: 6)
            playback.switchToLocalPlayback(from: session.remoteMediaClient)
            detachSession()
            closeCastModals()
            popCastScreens()
        case .didSuspend:
            if event.suspendReason == .appBackgrounded {
                toast("Cast session suspended while the app is in the background")
            } else if event.suspendReason != .appTerminated {
                toast("Connection to the device lost; reconnecting…")
            }
        default:
            // willEnd, willResume, volume and status changes: the views read them from the
            // session; later kinds of event need nothing here either.
            break
        }
    }

    private func closeChooser() {
        if case .chooser = modal { modal = nil }
        devicePicker.close()
    }

    /// Closes the dialogs about the session that ended. The device chooser stays: the Cast
    /// button presents it only while no session is connected, so a chooser open now was opened
    /// after this session stopped being connected (the button goes idle before the end is
    /// reported), and it is the person's next choice.
    private func closeCastModals() {
        switch modal {
        case .stopCasting, .actionSheet: modal = nil
        default: break
        }
    }

    // MARK: Requests

    /// Adds the Cast Connect credentials to a load while the "Creds" toggle is on.
    func applyCredentials(to request: inout LoadRequestData) {
        guard credentialsEnabled else { return }
        request.credentials = AppModel.credentialsValue
        request.credentialsType = "ios"
    }

    /// Shows a toast when `request` fails.
    func report(_ request: CastRequest?, failure: String) {
        guard let request else { return }
        Task { [weak self] in
            let outcome = await request.waitForOutcome()
            guard let self else { return }
            if let error = request.error {
                self.toast("\(failure): \(error.description)", seconds: 6)
            } else if case .completed = outcome {
                return
            }
            self.terminal.requestRender()
        }
    }

    // MARK: Cast Connect credentials

    /// The "Creds" toggle: sets or clears the launch credentials and says what they are.
    func toggleCredentials() {
        credentialsEnabled.toggle()
        context.setLaunchCredentials(
            credentialsEnabled ? CredentialsData(credentials: AppModel.credentialsValue, credentialsType: "ios") : nil
        )
        toast("Credentials: \(credentialsEnabled ? AppModel.credentialsValue : "none")")
    }

    // MARK: Volume keys

    /// `+`, `-` and `m`: while casting they go to the context, which changes the device
    /// volume (`physicalVolumeButtonsWillControlDeviceVolume`), else the local player's.
    func volumeKey(_ key: VolumeKey) {
        if let request = context.volumeKeyPressed(key) {
            report(request, failure: "Volume failed")
            if let session, let volume = session.deviceVolume, volume.controlType != .fixed {
                let muted = key == .mute ? !(volume.muted ?? false) : (volume.muted ?? false)
                let level = Int(((session.pendingDeviceVolume ?? volume.level ?? 0) * 100).rounded())
                flash(muted ? "Device muted (volume \(level)%)" : "Device volume \(level)%")
            } else {
                flash(key == .mute ? "Stream mute toggled" : "Stream volume changed (the device volume is fixed)")
            }
            return
        }
        if isConnected {
            flash("The device volume cannot be changed now")
            return
        }
        switch key {
        case .up: playback.localVolume = min(100, playback.localVolume + 5)
        case .down: playback.localVolume = max(0, playback.localVolume - 5)
        default: playback.localMuted.toggle()
        }
        flash(playback.localMuted ? "Local player muted" : "Local volume \(playback.localVolume)%")
    }

    // MARK: Ctrl-Z

    /// Ctrl-Z: the app goes to the background. The context suspends the Cast session (its
    /// connection closes; the device keeps playing), the terminal goes back to the shell and
    /// the process stops; `fg` continues it, the terminal comes back and the session resumes.
    func suspendToShell() async {
        let casting = isConnected
        await context.applicationDidEnterBackground()
        terminal.suspendProcess()
        context.applicationWillEnterForeground()
        toast(casting ? "Welcome back: resuming the Cast session…" : "Welcome back")
    }

    /// "Stop casting" in the Cast button's dialog (the Cast dialog's button, as GCK's
    /// `endSessionAndStopCasting`): ends the session and stops the receiver app.
    func stopCasting() {
        let button = castButton
        Task { await button.stopCasting(stopReceiverApplication: true) }
    }
}
