import CastCore
import CastSender
import CastSenderUI
import Foundation
import TerminalUI

extension AppModel {
    /// Reacts to a key.
    func handle(_ event: KeyEvent) {
        if modal != nil {
            handleModal(event)
            return
        }
        // Typing a message: every printable key is text.
        if topScreen == .customChannel, handleCustomChannel(event) { return }
        switch event.key {
        case .character("q") where !isEditing:
            terminal.stop()
            return
        case .character("?"):
            modal = .help
            return
        case .character("c"):
            castButtonTapped()
            return
        case .character("k"):
            toggleCredentials()
            return
        case .character("+"), .character("="):
            if let id = expandedMember { groupVolume.volumeUp(forMember: id) } else { volumeKey(.up) }
            return
        case .character("-"), .character("_"):
            if let id = expandedMember { groupVolume.volumeDown(forMember: id) } else { volumeKey(.down) }
            return
        case .character("m"):
            if let id = expandedMember { groupVolume.toggleMuted(forMember: id) } else { volumeKey(.mute) }
            return
        default:
            break
        }
        if catalogScreen.hasFailed, topScreen == .list {
            catalogScreen.handle(event)
            return
        }
        if showsMiniController, expandedControls.handleMiniController(event) { return }
        switch topScreen {
        case .list: catalogScreen.handle(event)
        case .detail(let item): playback.handleDetail(event, item: item)
        case .expandedController: expandedControls.handleExpanded(event)
        case .queue: queueScreen.handle(event)
        case .settings: settingsScreen.handle(event)
        case .customChannel: break
        }
    }

    /// The discovery failure the chooser explains, if discovery could not start.
    var discoveryFailure: String? { interstitial.state.discoveryError }

    private var isEditing: Bool {
        if case .edit = modal { return true }
        return false
    }

    // MARK: Cast button

    /// The Cast button (the widget decides): the interstitial the first time, then the device
    /// chooser, or the stop-casting dialog while connected.
    func castButtonTapped() {
        switch castButton.tap() {
        case .presentLocalNetworkInterstitial:
            let content = interstitial.state.content
            modal = .interstitial(
                Dialog(
                    title: content.title,
                    message: content.message,
                    buttons: [content.acceptTitle, content.declineTitle]
                )
            )
        case .presentDeviceChooser:
            devicePicker.open()
        case .presentStopCastingDialog(let dialog):
            selectedMember = nil
            modal = .stopCasting(
                Dialog(
                    title: dialog.deviceName,
                    message: "Now playing: \(dialog.nowPlaying)",
                    buttons: [dialog.stopButtonTitle, dialog.closeButtonTitle]
                )
            )
        }
    }

    // MARK: Modals

    private func handleModal(_ event: KeyEvent) {
        guard let modal else { return }
        switch modal {
        case .introductoryOverlay:
            if event.key == .enter || event.key == .escape || event.key == .character(" ") {
                self.modal = nil
                introductoryOverlay.dismiss()
            }
        case .help:
            self.modal = nil
        case .tracks:
            trackSelector.handle(event)
        case .interstitial(var dialog):
            switch dialog.handle(event) {
            case .chose(0):
                interstitial.accept()
                devicePicker.open()
            case .chose, .cancelled:
                interstitial.decline()
                self.modal = nil
            case nil:
                self.modal = .interstitial(dialog)
            }
        case .chooser:
            devicePicker.handle(event)
        case .stopCasting(var dialog):
            // The dialog's volume control: the same keys as everywhere, on the group or, on a
            // speaker group, on the member chosen with 1–9 (0: the group again).
            if selectMember(with: event) { return }
            switch event.key {
            case .character("+"), .character("="):
                if let id = selectedMember { groupVolume.volumeUp(forMember: id) } else { volumeKey(.up) }
                return
            case .character("-"), .character("_"):
                if let id = selectedMember { groupVolume.volumeDown(forMember: id) } else { volumeKey(.down) }
                return
            case .character("m"):
                if let id = selectedMember { groupVolume.toggleMuted(forMember: id) } else { volumeKey(.mute) }
                return
            default:
                break
            }
            switch dialog.handle(event) {
            case .chose(0):
                self.modal = nil
                stopCasting()
            case .chose, .cancelled:
                self.modal = nil
            case nil:
                self.modal = .stopCasting(dialog)
            }
        case .actionSheet(var dialog, let item):
            switch dialog.handle(event) {
            case .chose(let index):
                self.modal = nil
                switch dialog.buttons[index] {
                case "Play Now": playback.loadRemote(item, mode: .now)
                case "Play Next": playback.loadRemote(item, mode: .next)
                case "Add to Queue": playback.loadRemote(item, mode: .append)
                default: break
                }
            case .cancelled:
                self.modal = nil
            case nil:
                self.modal = .actionSheet(dialog, item)
            }
        case .alert(var dialog):
            switch dialog.handle(event) {
            case .chose, .cancelled: self.modal = nil
            case nil: self.modal = .alert(dialog)
            }
        case .edit(let field, let text, _):
            settingsScreen.handleEdit(event, field: field, text: text)
        }
    }

    // MARK: Custom channel

    /// The custom-channel screen, with the channel registered with the session.
    func openCustomChannel() {
        customChannel.attach(to: isConnected ? session : nil)
        push(.customChannel)
    }

    /// The custom-channel screen's keys: printable characters type, ⏎ sends, ⌫ deletes, esc
    /// goes back. Returns whether the key was taken.
    private func handleCustomChannel(_ event: KeyEvent) -> Bool {
        switch event.key {
        case .escape:
            pop()
        case .enter:
            customChannel.attach(to: isConnected ? session : nil)
            customChannel.send()
        case .backspace:
            if !customChannel.input.isEmpty { customChannel.input.removeLast() }
        default:
            guard let character = event.key.character, event.modifiers.isDisjoint(with: [.control, .alt]) else {
                return false
            }
            if customChannel.input.count < CustomChannelScreen.maximumInput { customChannel.input.append(character) }
        }
        return true
    }

    // MARK: Speaker-group members

    /// The speaker-group member the volume keys act on in the expanded controller, or `nil`
    /// for the group (or a single device).
    var expandedMember: String? {
        guard modal == nil, case .expandedController = topScreen, let id = selectedMember,
            groupVolume.state.isGroup, groupVolume.state.members.contains(where: { $0.id == id })
        else { return nil }
        return id
    }

    /// On a speaker group, the digit keys choose what the volume keys act on: 1–9 a member,
    /// 0 the group. Returns whether the key was such a digit.
    func selectMember(with event: KeyEvent) -> Bool {
        let members = groupVolume.state.isGroup ? groupVolume.state.members : []
        if let id = selectedMember, !members.contains(where: { $0.id == id }) { selectedMember = nil }
        guard !members.isEmpty, let digit = event.key.character, digit.isASCII, let index = Int(String(digit))
        else { return false }
        if index == 0 {
            selectedMember = nil
        } else if index <= members.count {
            selectedMember = members[index - 1].id
        }
        return true
    }
}
