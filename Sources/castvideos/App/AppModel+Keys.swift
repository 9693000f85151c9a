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
        if case .failed = catalogState, topScreen == .list {
            if event.key == .character("r") { loadCatalog() }
            return
        }
        if showsMiniController, handleMiniController(event) { return }
        switch topScreen {
        case .list: handleList(event)
        case .detail(let item): handleDetail(event, item: item)
        case .expandedController: handleExpanded(event)
        case .queue: handleQueue(event)
        case .settings: handleSettings(event)
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
            openChooser()
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

    func openChooser() {
        let chooser = DeviceChooserModel(context: context)
        self.chooser = chooser
        chooserState = ListState(count: chooser.state.devices.count)
        modal = .chooser
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
            handleTracks(event)
        case .interstitial(var dialog):
            switch dialog.handle(event) {
            case .chose(0):
                interstitial.accept()
                openChooser()
            case .chose, .cancelled:
                interstitial.decline()
                self.modal = nil
            case nil:
                self.modal = .interstitial(dialog)
            }
        case .chooser:
            handleChooser(event)
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
                case "Play Now": loadRemote(item, mode: .now)
                case "Play Next": loadRemote(item, mode: .next)
                case "Add to Queue": loadRemote(item, mode: .append)
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
        case .edit(let field, var text, _):
            switch event.key {
            case .escape:
                self.modal = nil
            case .enter:
                if let problem = AppSettings.validate(field, text) {
                    self.modal = .edit(field, text: text, problem: problem)
                } else {
                    settings.set(field, text)
                    saveSettings()
                    self.modal = nil
                    toast("\(field.title): \(settings.text(field))")
                }
            case .backspace:
                if !text.isEmpty { text.removeLast() }
                self.modal = .edit(field, text: text, problem: nil)
            default:
                if let character = event.key.character, event.modifiers.isDisjoint(with: [.control, .alt]),
                    text.count < 64
                {
                    text.append(character)
                    self.modal = .edit(field, text: text, problem: nil)
                }
            }
        }
    }

    private func handleChooser(_ event: KeyEvent) {
        guard let chooser else {
            modal = nil
            return
        }
        let devices = chooser.state.devices
        chooserState.setCount(devices.count)
        switch event.key {
        case .escape, .character("c"):
            modal = nil
            self.chooser = nil
        case .enter:
            guard let index = chooserState.selection, devices.indices.contains(index) else { return }
            let device = devices[index]
            // Shown until the session started or failed (withdrawn then), however long that takes.
            toast(connectingToast(device.name), seconds: 60)
            // The session listener reports the outcome (didStart / didFailToStart).
            Task { try? await chooser.select(device.id) }
        case .character("r"):
            chooser.retry()
            toast("Looking for devices again…")
        default:
            _ = chooserState.handle(event, visibleRows: 8)
        }
    }

    // MARK: Mini controller

    /// The mini controller's keys: space plays or pauses the device, `e` opens the expanded
    /// controller.
    private func handleMiniController(_ event: KeyEvent) -> Bool {
        switch event.key {
        case .character(" ") where !isLocalPlayerScreen:
            miniTogglePlayPause()
            return true
        case .character("e"):
            if container.miniController.select() { push(.expandedController) }
            return true
        default:
            return false
        }
    }

    private var isLocalPlayerScreen: Bool {
        if case .detail = topScreen, playbackMode != .remote { return true }
        return false
    }

    // MARK: Screens

    private func handleList(_ event: KeyEvent) {
        guard let catalog else { return }
        switch event.key {
        case .enter, .right:
            guard let index = listState.selection, catalog.items.indices.contains(index) else { return }
            push(.detail(catalog.items[index]))
        case .character("u"):
            openQueue()
        case .character("s"):
            push(.settings)
        case .character("h"):
            openCustomChannel()
        default:
            _ = listState.handle(event, visibleRows: 8)
        }
    }

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

    private func openQueue() {
        guard let client = remoteClient else {
            toast("The queue is on the Cast device: connect first")
            return
        }
        queueState = ListState(count: client.mediaQueue.itemCount)
        if let current = client.mediaStatus?.currentItemID, let index = client.mediaQueue.index(ofItemID: current) {
            queueState.select(index)
        }
        push(.queue)
    }

    private func handleDetail(_ event: KeyEvent, item: MediaItem) {
        switch event.key {
        case .escape, .backspace:
            pop()
        case .left where localItem != item || !localPlayer.isActive:
            pop()
        case .enter, .character(" "), .character("p"):
            if isConnected {
                modal = .actionSheet(
                    Dialog(
                        title: "Play Item",
                        message: "Select an action\n\(item.title)",
                        buttons: ["Play Now", "Play Next", "Add to Queue", "Cancel"]
                    ),
                    item
                )
                return
            }
            if localItem != item {
                localItem = item
                localPlayer.load(duration: item.duration, position: 0, playing: true, at: now)
            } else {
                localPlayer.togglePlayPause(at: now)
            }
            playbackMode = .local
        case .left:
            if localItem == item { localPlayer.seek(by: -10, at: now) }
        case .right:
            if localItem == item { localPlayer.seek(by: 10, at: now) }
        case .character("x"):
            if localItem == item { localPlayer.stop(at: now) }
        case .character("u"):
            openQueue()
        case .character("h"):
            openCustomChannel()
        default:
            break
        }
    }

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

    private func handleExpanded(_ event: KeyEvent) {
        if selectMember(with: event) { return }
        switch event.key {
        case .escape, .backspace:
            pop()
        case .character(" "), .enter:
            remoteTogglePlayPause()
        case .left:
            remoteSeek(by: -30)
        case .right:
            remoteSeek(by: 30)
        case .character("x"):
            remoteStop()
        case .character("r"):
            remoteCycleRate()
        case .character("t"):
            openTrackSelector()
        case .character("l"):
            remoteCycleRepeat()
        case .character("n"):
            remoteSkip(next: true)
        case .character("b"):
            remoteSkip(next: false)
        case .character("u"):
            openQueue()
        case .character("s"):
            remoteSkipAd()
        case .character("h"):
            openCustomChannel()
        default:
            break
        }
    }

    private func handleQueue(_ event: KeyEvent) {
        guard let client = remoteClient else {
            pop()
            return
        }
        let ids = client.mediaQueue.itemIDs
        queueState.setCount(ids.count)
        let selected = queueState.selection.flatMap { ids.indices.contains($0) ? ids[$0] : nil }
        switch event.key {
        case .escape, .backspace:
            pop()
        case .enter:
            if let selected { report(client.queueJumpToItem(withID: selected), failure: "Jump failed") }
        case .character("d"), .delete:
            if let selected { report(client.queueRemoveItems(withIDs: [selected]), failure: "Remove failed") }
        case .character("["), .character("K"):
            guard let selected, let index = queueState.selection, index > 0 else { return }
            report(
                client.queueReorderItems(withIDs: [selected], insertBeforeItemID: ids[index - 1]),
                failure: "Move failed"
            )
            queueState.select(index - 1)
        case .character("]"), .character("J"):
            guard let selected, let index = queueState.selection, index + 1 < ids.count else { return }
            let before = index + 2 < ids.count ? ids[index + 2] : MediaQueueItemID.invalid
            report(client.queueReorderItems(withIDs: [selected], insertBeforeItemID: before), failure: "Move failed")
            queueState.select(index + 1)
        case .character(" "):
            remoteTogglePlayPause()
        default:
            _ = queueState.handle(event, visibleRows: 10)
        }
    }

    private func handleSettings(_ event: KeyEvent) {
        switch event.key {
        case .escape, .backspace, .left:
            pop()
        case .enter:
            guard let index = settingsState.selection, let field = AppSettings.Field(rawValue: index) else { return }
            modal = .edit(field, text: settings.text(field), problem: nil)
        default:
            _ = settingsState.handle(event, visibleRows: 10)
        }
    }

    func saveSettings() {
        do {
            try settingsStore.save(settings)
        } catch {
            toast("Could not save settings: \(error.localizedDescription)")
        }
        context.options.logger.filter = settings.logFilter
        // Every widget and screen reads the context's picker each time: the choice holds at once.
        context.imagePicker = settings.imagePickerChoice.picker
    }
}
