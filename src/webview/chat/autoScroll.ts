// Keeps the transcript pinned to the bottom while a reply streams, until the user scrolls up; scrolling
// back to the bottom (or pressing "Jump to latest") pins it again.

/** Within this many pixels of the bottom counts as "at the bottom". */
const BOTTOM_SLACK_PX = 48;

export class AutoScroll {
  private pinned = true;

  constructor(
    private readonly container: HTMLElement,
    private readonly jumpButton: HTMLElement,
  ) {
    container.addEventListener('scroll', () => {
      this.pinned = this.distanceFromBottom() <= BOTTOM_SLACK_PX;
      this.jumpButton.hidden = this.pinned;
    }, { passive: true });
    jumpButton.addEventListener('click', () => this.jumpToLatest());
    jumpButton.hidden = true;
  }

  /** Call after content changed: follows the new content only when the user has not scrolled away. */
  contentChanged(): void {
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
