import { useState } from "react";
import { useRevalidator } from "react-router";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { ImageUpload } from "./image-upload";
import { ImportUrlForm } from "./import-url-form";

/** Uploading (with its progress, to POST /api/media) and importing by URL, side by side on wide screens. */
export function AddImagesCard() {
  const revalidator = useRevalidator();
  const [lastUpload, setLastUpload] = useState<{ url: string; alt: string } | null>(null);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Add images</CardTitle>
        <CardDescription>
          Every image is stripped of its metadata and resized for phones and wide screens.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6 lg:grid-cols-2">
        <ImageUpload
          current={lastUpload}
          onUploaded={(image) => {
            setLastUpload({ url: image.url, alt: image.alt ?? "" });
            void revalidator.revalidate();
          }}
        />
        <ImportUrlForm />
      </CardContent>
    </Card>
  );
}
