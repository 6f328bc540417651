import { showToast } from "~/components/auth/feedback";
import { isFormActionData } from "~/lib/forms";

/**
 * The admin routes' client action (`export const clientAction = toastActionAnswer`):
 * shows the toast of a form intent's answer as soon as the answer arrives, before the
 * page revalidates. Shown from the component that submitted it, a delete's toast could
 * go unseen: the answer comes with the revalidated list that no longer holds the item
 * whose dialog sent it, React Router applies both as transitions, and a busy browser may
 * render only the later one, in which that dialog is gone (seen with the CPU slowed
 * twentyfold: the image deleted, no toast).
 */
export async function toastActionAnswer<Answer>({
  serverAction,
}: {
  serverAction: () => Promise<Answer>;
}): Promise<Answer> {
  const answer = await serverAction();
  if (isFormActionData(answer)) showToast(answer.toast);
  return answer;
}
