// Keeps the transcript pinned to the bottom while a reply streams, until the user scrolls up; scrolling
// back to the bottom (or pressing "Jump to latest") pins it again.

/** Within this many pixels of the bottom counts as "at the bottom". */
const BOTTOM_SLACK_PX = 48;

export class AutoScroll {
  private pinned = true;
  /** A follow is due at the next frame (reading scrollHeight now would force a layout on the text's path). */
  private followRequested = false;

  constructor(
    private readonly container: HTMLElement,
    private readonly jumpButton: HTMLElement,
  ) {
    container.addEventListener('scroll', () => {
      // Content grew and the follow has not run yet: this is no sign the user scrolled away.
      if (this.followRequested) return;
      this.pinned = this.distanceFromBottom() <= BOTTOM_SLACK_PX;
      this.jumpButton.hidden = this.pinned;
    }, { passive: true });
    jumpButton.addEventListener('click', () => this.jumpToLatest());
    jumpButton.hidden = true;
  }

  /**
   * Call after content changed: follows the new content (at the next frame, before it is painted) only
   * when the user has not scrolled away.
   */
  contentChanged(): void {
    if (this.followRequested) return;
    this.followRequested = true;
    requestAnimationFrame(() => this.contentChangedInFrame());
  }

  /** The same, now: for callers already in an animation frame (the layout is due anyway). */
  contentChangedInFrame(): void {
    this.followRequested = false;
    if (this.pinned) this.container.scrollTop = this.container.scrollHeight;
    else this.jumpButton.hidden = false;
  }

  jumpToLatest(): void {
    this.pinned = true;
    this.jumpButton.hidden = true;
    this.container.scrollTop = this.container.scrollHeight;
  }

  private distanceFromBottom(): number {
    return this.container.scrollHeight - this.container.scrollTop - this.container.clientHeight;
  }
}
